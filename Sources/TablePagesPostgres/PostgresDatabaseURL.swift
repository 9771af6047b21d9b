import Foundation
import MicroHTTP
import PostgresNIO

/// A PostgreSQL connection URL as libpq spells it, `postgresql://user:password@host:port/database`,
/// made into PostgresNIO's client configuration.
///
/// Understood: user and password (percent-encoded), host (a name, an address, `[v6]`), port
/// (5432), database (the user's name), and the query parameters `host` (a socket directory, when
/// it starts with `/`), `sslmode` (`disable`, the default, or `prefer`/`require`, which use TLS
/// and verify the server's certificate and name against the system's trust roots) and
/// `application_name`. The password may also come from `PGPASSWORD`, the user from `PGUSER`.
public struct PostgresDatabaseURL: Sendable, CustomStringConvertible {
    /// Why a URL cannot be used.
    public struct Invalid: Error, CustomStringConvertible {
        /// What is wrong, for the command line.
        public let description: String
    }

    /// The user to connect as.
    public let user: String
    /// The password, if any.
    let password: String?
    /// The database's name.
    public let database: String
    /// The server's host name or address, or nil for a socket.
    public let host: String?
    /// The TCP port, also the number in the socket's name.
    public let port: Int
    /// The directory of the server's Unix socket, when connecting through one.
    public let socketDirectory: String?
    /// `sslmode`: `disable`, `prefer` (TLS when the server offers it) or `require`.
    let sslMode: String

    /// Whether `text` looks like a PostgreSQL URL rather than a file name.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Reads `text`.
    /// - Throws: ``Invalid`` when it is not a PostgreSQL URL this type understands.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isPostgresURL(text), let components = URLComponents(string: text) else {
            throw Invalid(description: "\(text) is not a postgresql:// URL")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        user = try components.percentEncodedUser.map(Self.decoded) ?? environment["PGUSER"] ?? "postgres"
        password = try components.percentEncodedPassword.map(Self.decoded) ?? environment["PGPASSWORD"]
        let path = components.percentEncodedPath
        database = try Self.decoded(path.hasPrefix("/") ? String(path.dropFirst()) : path).nilIfEmpty ?? user
        port = components.port ?? 5432
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        if let directory = parameters["host"], directory.hasPrefix("/") {
            socketDirectory = directory
            self.host = nil
        } else {
            socketDirectory = nil
            guard let host = host ?? parameters["host"] else {
                throw Invalid(description: "\(text) names no host: give one (postgresql://user@localhost/db) or a socket directory (?host=/run/postgresql)")
            }
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        }
        switch parameters["sslmode"] ?? "disable" {
        case "disable", "allow": sslMode = "disable"
        case let mode where mode == "prefer" || mode == "require": sslMode = mode
        case let mode: throw Invalid(description: "sslmode=\(mode) is not supported: use disable, prefer or require")
        }
        for name in parameters.keys where !["host", "sslmode", "application_name"].contains(name) {
            throw Invalid(description: "the URL parameter \(name) is not supported (host, sslmode and application_name are)")
        }
    }

    /// The URL without its password, for logs.
    public var description: String {
        "postgresql://\(user)@\(host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "")\(host == nil ? "" : ":\(port)")/\(database)\(socketDirectory.map { "?host=\($0)" } ?? "")"
    }

    /// A client configuration for this URL, each connection starting with `parameters` set (e.g.
    /// `statement_timeout`).
    func clientConfiguration(parameters: [(String, String)], maximumConnections: Int) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            let mode: PostgresClient.Configuration.TLS = switch sslMode {
            case "prefer": .prefer(.makeClientConfiguration())
            case "require": .require(.makeClientConfiguration())
            default: .disable
            }
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: mode)
        }
        configuration.options.additionalStartupParameters = parameters
        configuration.options.maximumConnections = maximumConnections
        return configuration
    }

    /// `text` with each `%XX` made its byte, the bytes read as UTF-8 exactly (MicroHTTP's
    /// decoder; Foundation's `removingPercentEncoding` drops a leading byte-order mark, which a
    /// password may hold).
    /// - Throws: ``Invalid`` when an escape is malformed or the bytes are not UTF-8.
    static func decoded(_ text: String) throws -> String {
        guard let decoded = PercentEncoding.decode(text) else {
            throw Invalid(description: "the URL has a % not followed by two hex digits, or escapes that are not UTF-8")
        }
        return decoded
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
