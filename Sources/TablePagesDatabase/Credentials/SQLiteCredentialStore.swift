import Foundation
import GRDB
import TablePages

/// The server's credentials in a small SQLite file of their own (`tablepages-credentials.sqlite`
/// by default): the session secret, the access tokens' hashes (never a token itself) and the
/// nonces of the sign-in links used and not expired yet. The file is
/// created readable by its owner only (mode 0600). The server and the `tablepages token …` commands
/// open it at the same time; SQLite's locking keeps them apart.
public final class SQLiteCredentialStore: CredentialStore {
    /// The file's path.
    public let path: String
    private let database: DatabaseQueue

    /// Opens the credentials file at `path`, creating it (0600) and its tables when missing.
    public init(path: String) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            // Created empty with its final mode first, so the secret is never in a file others may read.
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        var configuration = Configuration()
        // Another process (a `token` command) may hold the lock for a moment.
        configuration.busyMode = .timeout(5)
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS session_secret (id INTEGER PRIMARY KEY CHECK (id = 1), bytes BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS access_tokens (
                    name TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL UNIQUE, may_write INTEGER NOT NULL,
                    pages TEXT, created REAL NOT NULL
                );
                CREATE TABLE IF NOT EXISTS used_sign_in_links (nonce TEXT PRIMARY KEY NOT NULL, expires REAL NOT NULL);
                CREATE INDEX IF NOT EXISTS used_sign_in_links_expires ON used_sign_in_links (expires);
                """)
        }
    }

    /// The stored secret; a new random one, stored, when there is none yet.
    public func sessionSecret() throws -> [UInt8] {
        // Read first: the server calls this every refresh, and a write would lock out the `token` commands.
        if let bytes = try database.read({ db in try Self.storedSecret(db) }) { return bytes }
        return try database.write { db in try Self.storedSecret(db) ?? Self.storeNewSecret(db) }
    }

    /// Stores a new random secret in place of the old one and returns it.
    public func rotateSessionSecret() throws -> [UInt8] {
        try database.write { db in try Self.storeNewSecret(db) }
    }

    /// The stored tokens (names, hashes, rights), by name.
    public func tokens() throws -> [StoredToken] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, hash, may_write, pages, created FROM access_tokens ORDER BY name").map { row in
                let pages: String? = row["pages"]
                return StoredToken(
                    name: row["name"], hash: row["hash"], mayWrite: row["may_write"],
                    pages: pages.map { Set($0.split(separator: ",").map(String.init)) },
                    created: Date(timeIntervalSince1970: row["created"])
                )
            }
        }
    }

    /// Stores `token`; throws ``TokenExists`` when its name is taken.
    public func add(_ token: StoredToken) throws {
        try database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM access_tokens WHERE name = ?", arguments: [token.name]) == true {
                throw TokenExists(name: token.name)
            }
            try db.execute(
                sql: "INSERT INTO access_tokens (name, hash, may_write, pages, created) VALUES (?, ?, ?, ?, ?)",
                arguments: [token.name, token.hash, token.mayWrite, token.pages.map { $0.sorted().joined(separator: ",") }, token.created.timeIntervalSince1970]
            )
        }
    }

    /// Deletes the token named `name`; false when there was none.
    public func revokeToken(named name: String) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM access_tokens WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    /// Records the sign-in link `nonce` as used until `expires`: true the first time, false after.
    /// One write transaction, so two processes sharing the file never both get true.
    public func claimSignInNonce(_ nonce: String, expires: Date, now: Date) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM used_sign_in_links WHERE expires <= ?", arguments: [now.timeIntervalSince1970])
            try db.execute(
                sql: "INSERT OR IGNORE INTO used_sign_in_links (nonce, expires) VALUES (?, ?)",
                arguments: [nonce, expires.timeIntervalSince1970]
            )
            return db.changesCount > 0
        }
    }

    /// The sign-in links recorded as used and not pruned yet (tests).
    public func usedSignInLinkCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM used_sign_in_links") ?? 0 }
    }

    private static func storedSecret(_ db: Database) throws -> [UInt8]? {
        guard let bytes = try Data.fetchOne(db, sql: "SELECT bytes FROM session_secret WHERE id = 1"), bytes.count == SessionSecret.byteCount else { return nil }
        return Array(bytes)
    }

    private static func storeNewSecret(_ db: Database) throws -> [UInt8] {
        let secret = SessionSecret.random().bytes
        try db.execute(sql: "INSERT OR REPLACE INTO session_secret (id, bytes) VALUES (1, ?)", arguments: [Data(secret)])
        return secret
    }

    /// A token of that name exists already.
    public struct TokenExists: Error, CustomStringConvertible {
        /// The name asked for.
        public let name: String
        /// What to do about it.
        public var description: String { "A token named \u{201C}\(name)\u{201D} exists; revoke it first or choose another name." }
    }
}
