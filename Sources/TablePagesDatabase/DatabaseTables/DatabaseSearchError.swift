import MicroHTTP
import TablePages

/// A raw full-text query (`_searchmode=raw`) that SQLite refused: the client's mistake, a 400 that
/// quotes SQLite's reason (which names the query's own words, nothing of the server's).
struct DatabaseSearchError: Error, HTTPErrorConvertible {
    /// The query as given.
    let search: String
    /// What SQLite said, e.g. `fts5: syntax error near "AND"`.
    let reason: String

    var httpError: HTTPError {
        HTTPError(400, "_search \u{201C}\(search)\u{201D} is not a valid FTS5 query (\(reason)). Leave out _searchmode=raw to search for the words as they are.")
    }
}
