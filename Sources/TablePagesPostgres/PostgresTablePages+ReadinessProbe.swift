import TablePages

extension PostgresTablePages: ReadinessProbe {
    /// Runs `SELECT 1` in a read like a page's, for `/readyz`; a failure names the database.
    public func probe() throws {
        do {
            try executor.read { try $0.forEachRow(sql: "SELECT 1", arguments: [], keepsPrepared: true) { _ in } }
        } catch {
            throw PostgresUnreachable(database: url.description, underlying: error)
        }
    }
}

/// Why the PostgreSQL database did not answer `/readyz`'s probe, as its answer says it.
private struct PostgresUnreachable: Error, CustomStringConvertible {
    let database: String
    let underlying: any Error

    var description: String { "The database \(database) could not be read: \(String(reflecting: underlying))" }
}
