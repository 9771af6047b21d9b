import Foundation
import GRDB
import HTTPTestSupport
import MicroHTTP
@testable import TablePages
import TablePagesDatabase
import TablePagesExamples
import TableStore

/// A fresh examples database in a temporary folder of its own, removed when the test is done.
struct ExampleDatabaseFile {
    let directory: String
    var path: String { directory + "/tablepages.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("examples-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Starts the real server with the example pages over the examples database at `file` (opened,
/// migrated and seeded as `tablepages serve` does), watching the file for other writers.
func withExampleSite<T>(
    file: ExampleDatabaseFile, metrics: ServiceMetrics? = nil, access: AccessSettings = AccessSettings(anonymousWrites: true),
    _ body: (Server, Store) async throws -> T
) async throws -> T {
    let store = try ExamplePages.open(at: file.path)
    store.metrics = metrics?.store
    store.startWatching(every: .milliseconds(50))
    defer { store.stopWatching() }
    var pages = PageRegistry()
    try ExamplePages.register(store: store, in: &pages)
    return try await withSite(pages: pages, metrics: metrics, access: access) { server, _ in try await body(server, store) }
}

/// Runs `body` with a fresh database file, then removes it.
func withExampleDatabase<T>(_ body: (ExampleDatabaseFile) async throws -> T) async throws -> T {
    let file = try ExampleDatabaseFile()
    defer { file.remove() }
    return try await body(file)
}

/// The row ids of a page's JSON, in order.
func rowIDs(inPageJSON text: String) throws -> [String] {
    let page = try JSONDecoder().decode(PageJSON.self, from: Data(text.utf8))
    return page.sections.flatMap { $0.rows.map(\.id) }
}

/// The parts of a page's JSON the example tests look at.
struct PageJSON: Decodable {
    struct Section: Decodable {
        let id: String
        let rows: [Row]
    }

    struct Row: Decodable {
        let id: String
        let title: String?
        let detail: String?
        let height: Double?
        let estimatedHeight: Double?
    }

    let version: Int
    let sections: [Section]

    static func decode(_ text: String) throws -> PageJSON {
        try JSONDecoder().decode(PageJSON.self, from: Data(text.utf8))
    }

    func row(_ id: String) -> Row? {
        sections.lazy.flatMap(\.rows).first { $0.id == id }
    }
}

/// The `"op"`s of an SSE patch event with the rows they name, e.g. `["replace todo-3", "replace progress"]`.
func operations(in event: String) -> [String] {
    guard let dataLine = event.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
          let object = try? JSONSerialization.jsonObject(with: Data(dataLine.dropFirst(6).utf8)) as? [String: Any],
          let ops = object["ops"] as? [[String: Any]] else { return [] }
    return ops.map { op in
        let name = op["op"] as? String ?? "?"
        let target = (op["row"] as? String) ?? (op["section"] as? String) ?? ""
        return name + " " + target
    }
}

/// The `data` objects of the row operations of every event in `text`.
func rowData(inEvents text: String) -> [[String: Any]] {
    events(in: text).flatMap { event -> [[String: Any]] in
        guard let dataLine = event.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
              let object = try? JSONSerialization.jsonObject(with: Data(dataLine.dropFirst(6).utf8)) as? [String: Any],
              let ops = object["ops"] as? [[String: Any]] else { return [] }
        return ops.compactMap { $0["data"] as? [String: Any] }
    }
}

/// Actors for the access suites, and the request headers that act for them.
enum AccessFixtures {
    static let alice = token("alice", mayWrite: true).actor
    static let bob = token("bob", mayWrite: true).actor
    /// Signed in, but may not write anything.
    static let reader = token("reader", mayWrite: false).actor

    /// The stored token named `name`, whose secret is `NAME-secret`.
    static func token(_ name: String, mayWrite: Bool) -> StoredToken {
        StoredToken(name: name, hash: AccessTokens.hash(name + "-secret"), mayWrite: mayWrite, pages: nil, created: Date(timeIntervalSince1970: 0))
    }

    /// Only signed-in actors write (the default), and these three have tokens (`NAME-secret`).
    static var settings: AccessSettings {
        let store = MemoryCredentialStore()
        for actor in [alice, bob, reader] {
            try? store.add(token(actor.name, mayWrite: actor.mayWrite))
        }
        return AccessSettings(credentials: store)
    }

    /// The headers a request acting for `actor` carries (JSON answers too).
    static func headers(_ actor: Actor?, json: Bool = true) -> [(String, String)] {
        var headers: [(String, String)] = json ? [("Accept", "application/json")] : []
        if let actor {
            headers.append(("Authorization", "Bearer \(actor.name)-secret"))
        }
        return headers
    }
}
