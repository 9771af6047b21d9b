import MicroHTTP
import TablePages

/// An array facet (`_facet_array=col`) over a column that holds text SQLite cannot read as JSON:
/// the client's mistake, a 400 that quotes SQLite's reason.
struct DatabaseFacetError: Error, HTTPErrorConvertible {
    /// The column asked for.
    let column: String
    /// What SQLite said, e.g. `malformed JSON`.
    let reason: String

    var httpError: HTTPError {
        HTTPError(400, "_facet_array=\(column) counts the items of JSON arrays, but \u{201C}\(column)\u{201D} holds values that are not JSON (\(reason)). Count its values with _facet=\(column) instead.")
    }
}
