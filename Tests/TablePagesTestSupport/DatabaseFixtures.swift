import Foundation
import GRDB
import HTTPTestSupport
import Logging
import MicroHTTP
import TableStore
import Testing
@testable import TablePages
import TablePagesDatabase

/// A SQLite file in the temporary directory, made with `setUp`, removed with its WAL files by `remove()`.
struct TestDatabase {
    let path: String

    init(_ setUp: (Database) throws -> Void) throws {
        path = NSTemporaryDirectory() + "tablepages-db-\(UUID().uuidString).sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.write(setUp)
        try queue.close()
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Runs `sql` in the `sqlite3` shell: a writer in another process.
    func shell(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestConnection.Failure(description: "sqlite3 exited with \(process.terminationStatus)") }
    }

    /// 2,345 rows whose `score` repeats and is NULL for every 11th row, whose `category` is NULL
    /// for every 13th; plus a WITHOUT ROWID table keyed by (text, integer) with awkward texts.
    static func generated() throws -> TestDatabase {
        try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE items (id INTEGER PRIMARY KEY, score INTEGER, category TEXT, name TEXT);
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2345)
                INSERT INTO items SELECT x,
                    CASE WHEN x % 11 = 0 THEN NULL ELSE x % 37 END,
                    CASE WHEN x % 13 = 0 THEN NULL ELSE 'c' || (x % 5) END,
                    'item ' || x FROM n;
                CREATE TABLE pairs (label TEXT NOT NULL, n INTEGER NOT NULL, note TEXT, PRIMARY KEY (label, n)) WITHOUT ROWID;
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 300)
                INSERT INTO pairs SELECT
                    CASE x % 4 WHEN 0 THEN 'a,b' WHEN 1 THEN 'back\\slash' WHEN 2 THEN 'x' ELSE 'tab' || char(9) END,
                    x, 'note ' || x FROM n;
                """)
        }
    }
}

/// Starts the real server serving `database`'s tables (read-only unless `writable`), watching
/// the file for changes by other processes.
func withDatabaseSite<T>(
    _ database: TestDatabase, writable: Bool = false, settings: LiveSettings = LiveSettings(),
    _ body: (Server, Site, Store) async throws -> T
) async throws -> T {
    var logger = Logger(label: "DatabaseTablePagesTests")
    logger.logLevel = .warning
    let store = try Store.openExisting(path: database.path, writable: writable, logger: logger)
    var pages = PageRegistry()
    try DatabaseTablePages.register(store: store, in: &pages)
    store.startWatching(every: .milliseconds(50))
    defer { store.stopWatching() }
    return try await withSite(pages: pages, settings: settings) { server, site in try await body(server, site, store) }
}

/// A JSON response body as a dictionary.
func jsonObject(_ response: TestResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
}

/// The sections of a page's JSON, or the one section of a section's JSON.
func jsonSections(_ object: [String: Any]) -> [[String: Any]] {
    (object["sections"] as? [[String: Any]]) ?? [object]
}

/// Every row id of one section, from its first page to its last, following `next` links as a
/// client does; `first` is the section object of the page.
func followNextLinks(_ connection: TestConnection, from first: [String: Any]) async throws -> [String] {
    var ids = (first["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    var next = first["next"] as? String
    var pages = 0
    while let url = next {
        pages += 1
        guard pages < 10_000 else { throw TestConnection.Failure(description: "next links do not end") }
        let response = try await connection.request("GET", url, headers: [("Accept", "application/json")])
        guard response.status == 200 else { throw TestConnection.Failure(description: "\(url) answered \(response.status): \(response.text)") }
        let section = try jsonObject(response)
        ids += (section["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        next = section["next"] as? String
    }
    return ids
}

/// A table for the filter operators: 300 rows with NULLs and repeated values in every column, a
/// column without a declared type holding integers, reals, digit texts, words and blobs, columns
/// whose names look like filter parameters or hold `=`, `&`, `,`, quotes and non-ASCII letters,
/// and an FTS5 index of its text (`content=`, as `sqlite-utils enable-fts` makes), plus a table
/// without one.
enum FilterFixture {
    /// Every column but the key, in declaration order.
    static let columns = ["n", "r", "t", "m", "a__gt", "a", "we=ird&,\"q'", "ünï"]
    /// The column whose affinity is BLOB (no declared type).
    static let untypedColumn = "m"
    /// Words the text column holds, for searches.
    static let words = ["apple", "banana", "cherry", "Apple_tart", "50%", "ünïcode", "zebra", "AND"]

    static func make() throws -> TestDatabase {
        try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE things (
                    id INTEGER PRIMARY KEY, n INTEGER, r REAL, t TEXT, m, "a__gt" TEXT, a INTEGER,
                    "we=ird&,""q'" TEXT, "ünï" TEXT
                );
                WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 300)
                INSERT INTO things SELECT x,
                    CASE WHEN x % 7 = 0 THEN NULL ELSE x % 10 - 3 END,
                    CASE WHEN x % 9 = 0 THEN NULL ELSE (x % 13) * 0.5 END,
                    CASE x % 11
                        WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'apple pie' WHEN 3 THEN 'Apple_tart'
                        WHEN 4 THEN '50% off banana' WHEN 5 THEN 'back\\slash cherry' WHEN 6 THEN 'ünïcode ÄRGER'
                        WHEN 7 THEN 'APPLE AND banana' WHEN 8 THEN 'a,b' WHEN 9 THEN 'zebra ' || (x % 4) ELSE '12.5'
                    END,
                    CASE x % 6
                        WHEN 0 THEN x % 5 WHEN 1 THEN (x % 5) + 0.5 WHEN 2 THEN CAST(x % 5 AS TEXT)
                        WHEN 3 THEN 'w' || (x % 3) WHEN 4 THEN NULL ELSE x'00ff'
                    END,
                    CASE WHEN x % 5 = 0 THEN NULL ELSE 'v' || (x % 4) END,
                    x % 6,
                    CASE x % 3 WHEN 0 THEN 'a,b' WHEN 1 THEN 'x=y&z' ELSE NULL END,
                    'Ö' || (x % 2)
                FROM s;
                CREATE VIRTUAL TABLE [things_fts] USING FTS5 ([t], content=[things], content_rowid=[id]);
                INSERT INTO things_fts (rowid, t) SELECT id, t FROM things;
                CREATE TABLE plain (id INTEGER PRIMARY KEY, t TEXT);
                INSERT INTO plain (t) VALUES ('apple'), (NULL);
                """)
        }
    }
}
