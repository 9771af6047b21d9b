import Escaping
import Foundation
import NIOSSL
import PostgresNIO

/// A `postgresql://` URL, as `psql` and libpq take it, turned into postgres-nio's configurations:
/// the one parser behind `serve --postgres` (the examples' store) and `serve --database` (a
/// PostgreSQL database's tables as pages).
///
///     let url = try PostgresURL("postgresql://app:secret@db.internal:5432/tables?sslmode=require")
///     let client = PostgresClient(configuration: try url.clientConfiguration())
///
/// Understood: user and password (percent-encoded, decoded exactly), host (a name, an address,
/// `[v6]`), port (5432), database (the user's name when absent), and the query parameters `host`
/// (a socket directory when it starts with `/`, else the host), `port`, `user`, `password`,
/// `sslmode` — `disable` (or `allow`), `prefer` (TLS when the server offers it) or `require` (TLS
/// or no connection); both TLS modes verify the server's certificate and name against the
/// system's trust roots — and `application_name` (accepted; the caller names its connections).
/// Any other parameter is refused rather than silently ignored. The user may also come from
/// `PGUSER` (else `postgres`), the password from `PGPASSWORD`.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// Why a URL is not a PostgreSQL URL this type can use.
    public struct Invalid: Error, CustomStringConvertible {
        /// What is wrong with it, for the command line; never the password.
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

    /// The server's host name or address (without `[]`); nil with ``socketDirectory``.
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

    /// The query parameters understood; the rest are refused, so that a misspelt one is not
    /// silently dropped.
    private static let parameterNames: Set<String> = ["host", "port", "user", "password", "sslmode", "application_name"]

    /// Whether `text` looks like a PostgreSQL URL rather than a file name.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Parses `string`.
    /// - Parameters:
    ///   - string: the URL, `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?…]`.
    ///   - defaultTLSMode: the TLS mode when the URL gives no `sslmode`: libpq's `prefer` unless
    ///     the caller has reason to differ (`serve --database` keeps `disable`, its documented default).
    ///   - environment: where `PGUSER` and `PGPASSWORD` are looked up.
    /// - Throws: ``Invalid`` when it is not a `postgres://` or `postgresql://` URL with a host or a
    ///   socket directory, an escape is malformed, or a parameter is unknown or unusable.
    public init(_ string: String, defaultTLSMode: TLSMode = .prefer, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let shown = Self.redacted(string)
        guard Self.isPostgresURL(string), let components = URLComponents(string: string) else {
            throw Invalid(description: "'\(shown)' is not a postgresql:// URL")
        }
        var query: [String: String] = [:]
        for item in components.percentEncodedQueryItems ?? [] {
            let name = try Self.decoded(item.name)
            guard Self.parameterNames.contains(name) else {
                throw Invalid(description: "the URL parameter \(name) is not supported (\(Self.parameterNames.sorted().joined(separator: ", ")) are)")
            }
            // As libpq: the last of a repeated parameter counts.
            query[name] = try Self.decoded(item.value ?? "")
        }
        // Decoded here rather than by URLComponents (`user`, `password`, `path`), whose decoding
        // drops a leading byte-order mark.
        let username = try components.percentEncodedUser.map(Self.decoded).flatMap(\.nilIfEmpty)
            ?? query["user"]?.nilIfEmpty ?? environment["PGUSER"]?.nilIfEmpty ?? "postgres"
        let password = try components.percentEncodedPassword.map(Self.decoded) ?? query["password"] ?? environment["PGPASSWORD"]
        let path = components.percentEncodedPath
        let database = try Self.decoded(path.hasPrefix("/") ? String(path.dropFirst()) : path)
        if let directory = query["host"], directory.hasPrefix("/") {
            socketDirectory = directory
            host = nil
        } else {
            guard let host = components.host?.nilIfEmpty ?? query["host"]?.nilIfEmpty else {
                throw Invalid(description: "'\(shown)' names no host: give one (postgresql://USER@HOST/DATABASE) or a socket directory (?host=/run/postgresql)")
            }
            socketDirectory = nil
            // Foundation may keep an IPv6 literal's brackets; a connection wants the bare address.
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        }
        if let port = components.port {
            self.port = port
        } else if let text = query["port"] {
            guard let port = Int(text), (1...65535).contains(port) else {
                throw Invalid(description: "port must be a number from 1 to 65535; got '\(text)'")
            }
            self.port = port
        } else {
            self.port = 5432
        }
        switch query["sslmode"] {
        case nil: tlsMode = defaultTLSMode
        // libpq's `allow` tries without TLS first, which is what `disable` does here.
        case "disable", "allow": tlsMode = .disable
        case "prefer": tlsMode = .prefer
        case "require": tlsMode = .require
        case let mode?: throw Invalid(description: "sslmode must be disable, prefer or require; got '\(mode)'")
        }
        self.username = username
        self.password = password
        self.database = database.isEmpty ? username : database
    }

    /// The URL without its password, for logs.
    public var description: String {
        if let host {
            return "postgresql://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
        }
        return "postgresql://\(username)@/\(database)?host=\(socketDirectory ?? "")" + (port == 5432 ? "" : "&port=\(port)")
    }

    /// For a pool of connections, named `applicationName` in `pg_stat_activity`, each starting
    /// with `parameters` set (e.g. `statement_timeout`).
    public func clientConfiguration(applicationName: String = "tablepages", parameters: [(String, String)] = []) throws -> PostgresClient.Configuration {
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
        configuration.options.additionalStartupParameters = [("application_name", applicationName)] + parameters
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

    /// `text` with each `%XX` made its byte, the bytes read as UTF-8 exactly.
    /// - Throws: ``Invalid`` when an escape is malformed or the bytes are not UTF-8.
    private static func decoded(_ text: String) throws -> String {
        guard let decoded = URLComponentEncoding.decode(text[...]) else {
            throw Invalid(description: "the URL has a % not followed by two hex digits, or escapes that are not UTF-8")
        }
        return decoded
    }

    private static func redacted(_ string: String) -> String {
        // A password between "://user:" and "@" stays out of error messages.
        guard let scheme = string.range(of: "://") else { return string }
        let authority = string[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return string
        }
        return String(string[..<colon]) + ":…" + String(string[at...])
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
