import PostgresNIO

/// A PostgreSQL failure as the operator needs to read it: postgres-nio's `PSQLError` describes
/// itself only as "Generic description to prevent accidental leakage of sensitive data", so the
/// store rethrows it with the server's SQLSTATE and message (or the connection's failure), and
/// without the statement's arguments.
public struct PostgresError: Error, CustomStringConvertible {
    /// The SQLSTATE code, when the server answered with an error (e.g. `40001`, `57014`).
    public let sqlState: String?
    /// What went wrong.
    public let description: String

    /// Whether the same work may succeed if tried again soon: no connection was free, the
    /// connection failed, or the server gave up on a conflict or ran short (SQLSTATE classes 08,
    /// 40, 53, 57P).
    public var isTransient: Bool {
        guard let sqlState else { return true }
        return ["08", "40", "53"].contains(String(sqlState.prefix(2))) || sqlState.hasPrefix("57P")
    }

    /// Whether a statement ran past `statement_timeout` (the store's query time limit).
    public var isTimeout: Bool { sqlState == "57014" }

    /// An error of the store itself, not of postgres-nio.
    init(description: String) {
        sqlState = nil
        self.description = description
    }

    /// `error` in words; any other error is kept as it describes itself.
    init(_ error: any Error) {
        guard let error = error as? PSQLError else {
            sqlState = nil
            description = "PostgreSQL: \(error)"
            return
        }
        if let info = error.serverInfo {
            sqlState = info[.sqlState]
            description = "PostgreSQL error \(info[.sqlState] ?? "?"): \(info[.message] ?? "")" + (info[.detail].map { " (\($0))" } ?? "")
        } else {
            sqlState = nil
            description = "PostgreSQL: \(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
    }

    /// Runs `body`, rethrowing postgres-nio's errors as ``PostgresError``.
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PSQLError {
            throw PostgresError(error)
        }
    }
}
