import TablePages
import TableStorePostgres

extension PostgresStore: ReadinessProbe {
    /// Reads the version clock, for `/readyz`, and fails while the listening connection is down:
    /// an instance that cannot hear other instances' changes would show stale pages.
    public func probe() throws {
        let version: Int?
        do {
            version = try dataVersion()
        } catch {
            throw PostgresUnready(description: "PostgreSQL \(url) could not be read: \(error)")
        }
        guard isListening else {
            throw PostgresUnready(description: "PostgreSQL \(url) answers (version \(version ?? 0)), but the listening connection is down; reconnecting")
        }
    }
}

/// Why a PostgreSQL store did not answer `/readyz`'s probe, as its answer says it.
private struct PostgresUnready: Error, CustomStringConvertible {
    let description: String
}
