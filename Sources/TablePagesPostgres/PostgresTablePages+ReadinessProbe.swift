import TablePages

extension PostgresTablePages: ReadinessProbe {
    /// Runs `SELECT 1` in a read like a page's, for `/readyz`; a failure names the database.
    /// With `watch`, it also fails while no connection listens: pages would miss changes.
    public func probe() throws {
        if watches && !isListening {
            throw PostgresUnreachable(database: url.description, underlying: NotListening())
        }
        do {
            try executor.snapshot { try $0.forEachRow("SELECT 1", [], keepsPrepared: true) { _ in } }
        } catch {
            throw PostgresUnreachable(database: url.description, underlying: error)
        }
    }
}

/// Why a `--watch` instance is not ready: it cannot hear of changes.
private struct NotListening: Error, CustomStringConvertible {
    var description: String { "no connection listens for changes (reconnecting)" }
}

/// Why the PostgreSQL database did not answer `/readyz`'s probe, as its answer says it.
private struct PostgresUnreachable: Error, CustomStringConvertible {
    let database: String
    let underlying: any Error

    var description: String { "The database \(database) could not be read: \(String(reflecting: underlying))" }
}
