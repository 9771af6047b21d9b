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
    try DatabaseTablePages.register(store: store, in: &pages, feed: ChangeFeed())
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
