import TablePagesPostgres

/// Why `serve` does not start: canned queries would run as a role that is not a reader.
struct CannedQueriesNeedReader: Error, CustomStringConvertible {
    let refusal: PostgresReaderRole

    var description: String { "--config has canned queries, but \(refusal)" }
}
