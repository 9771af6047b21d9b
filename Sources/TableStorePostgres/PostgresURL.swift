import Foundation
import NIOSSL
import PostgresNIO

/// A `postgresql://` URL, as `psql` and libpq take it, turned into postgres-nio's configurations.
///
///     let url = try PostgresURL("postgresql://app:secret@db.internal:5432/tables?sslmode=require")
///     let client = PostgresClient(configuration: try url.clientConfiguration())
///
/// Understood: user, password, host (or `?host=/socket/directory` for a Unix socket), port (5432),
/// database (the user's name when absent), and `sslmode` — `disable`, `prefer` (the default:
/// TLS when the server offers it) or `require`.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// Why a URL is not a PostgreSQL URL this store can use.
    public struct Invalid: Error, CustomStringConvertible {
        /// What is wrong with it.
        public let description: String
    }

    /// How the connection uses TLS (libpq's `sslmode`).
    public enum TLSMode: String, Sendable {
        /// Never.
        case disable
        /// When the server offers it.
        case prefer
        /// Always; fails when the server refuses.
        case require
    }

    /// The server's host name or address; nil with ``socketDirectory``.
    public let host: String?
    /// The directory of the server's Unix socket, when given as `?host=/directory`.
    public let socketDirectory: String?
    /// The TCP port, or the number in the socket's file name.
    public let port: Int
    /// The role to connect as.
    public let username: String
    /// Its password, if the server asks for one.
    public let password: String?
    /// The database's name.
    public let database: String
    /// TLS.
    public let tlsMode: TLSMode

    /// Parses `string`.
    /// - Throws: ``Invalid`` when it is not a `postgres://` or `postgresql://` URL with a user.
    public init(_ string: String) throws {
        guard let components = URLComponents(string: string), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw Invalid(description: "'\(Self.redacted(string))' is not a postgresql:// URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        guard let username = components.user ?? query["user"], !username.isEmpty else {
            throw Invalid(description: "the PostgreSQL URL names no user (postgresql://USER@HOST/DATABASE)")
        }
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? query["host"].flatMap { $0.hasPrefix("/") ? nil : $0 }
        guard host != nil || socket != nil else {
            throw Invalid(description: "the PostgreSQL URL names no host (postgresql://USER@HOST/DATABASE, or ?host=/socket/directory)")
        }
        guard let mode = TLSMode(rawValue: query["sslmode"] ?? "prefer") else {
            throw Invalid(description: "sslmode must be disable, prefer or require; got '\(query["sslmode"] ?? "")'")
        }
        self.host = socket == nil ? host : nil
        self.socketDirectory = socket
        self.port = components.port ?? Int(query["port"] ?? "") ?? 5432
        self.username = username
        self.password = components.password ?? query["password"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? username : path
        self.tlsMode = mode
    }

    /// The URL without its password, for logs.
    public var description: String {
        let place = host.map { "\($0):\(port)" } ?? "\(socketDirectory ?? "")/.s.PGSQL.\(port)"
        return "postgresql://\(username)@\(place)/\(database)"
    }

    /// For the pool of connections that run the pages' transactions, named `applicationName` in
    /// `pg_stat_activity`.
    public func clientConfiguration(applicationName: String = "tablepages") throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: socketPath(socketDirectory), username: username, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
            configuration = .init(host: host ?? "localhost", port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// For one connection of its own, such as the listening connection; `applicationName` is what
    /// `pg_stat_activity` shows for it.
    public func connectionConfiguration(applicationName: String) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: socketPath(socketDirectory), username: username, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration = .init(host: host ?? "localhost", port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    private func socketPath(_ directory: String) -> String {
        directory + "/.s.PGSQL.\(port)"
    }

    private static func redacted(_ string: String) -> String {
        // A password between "://user:" and "@" stays out of error messages.
        guard let at = string.firstIndex(of: "@"), let scheme = string.range(of: "://"), let colon = string[scheme.upperBound..<at].firstIndex(of: ":") else {
            return string
        }
        return String(string[..<colon]) + ":…" + String(string[at...])
    }
}
