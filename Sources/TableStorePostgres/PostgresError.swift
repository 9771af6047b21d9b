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

    /// Whether a write's `COMMIT` was sent but whether it took effect could not be learnt (the
    /// connection failed before the answer, and the database could not be asked afterwards): the
    /// change may or may not be saved, so trying again may repeat it.
    public let isOutcomeUnknown: Bool

    /// Whether the connection failed (closed, unanswered, or ended by the server: SQLSTATE class
    /// 08, `57P01`–`57P03`) rather than the server refusing the statement; such a connection is
    /// of no more use.
    public var isConnectionFailure: Bool {
        guard let sqlState else { return true }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// An error of the store itself, not of postgres-nio.
    init(description: String, isOutcomeUnknown: Bool = false) {
        sqlState = nil
        self.description = description
        self.isOutcomeUnknown = isOutcomeUnknown
    }

    /// `error` (postgres-nio's `PSQLError`) in words; any other error is kept as it describes itself.
    public init(_ error: any Error) {
        isOutcomeUnknown = false
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
