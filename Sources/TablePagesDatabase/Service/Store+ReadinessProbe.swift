import TablePages
import TableStore

extension Store: ReadinessProbe {
    /// Reads the database's schema table, for `/readyz`; a failure names the database file.
    public func probe() throws {
        do {
            _ = try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            throw StoreUnreadable(path: path, underlying: error)
        }
    }
}

/// Why a store did not answer `/readyz`'s probe, as its answer says it.
private struct StoreUnreadable: Error, CustomStringConvertible {
    let path: String
    let underlying: any Error

    var description: String { "The database \(path) could not be read: \(underlying)" }
}
