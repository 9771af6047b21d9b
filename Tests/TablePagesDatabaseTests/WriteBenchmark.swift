import Foundation
import HTTPTestSupport
import Logging
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// The write path's figures on SQLite (`Benchmarks/writes.sh`; off unless `BENCH_WRITES=1`):
/// checked edits per second through one instance's writer, one client and four at once; a batch
/// of 1,000 rows; and the time from an edit to the patch on a viewer's live stream.
@Suite("Write path benchmark on SQLite", .serialized, .enabled(if: WriteBenchmarkFigures.isEnabled))
struct WriteBenchmark {
    static let figures = WriteBenchmarkFigures(label: "SQLite")
    static let quiet: Logger = {
        var logger = Logger(label: "WriteBenchmark")
        logger.logLevel = .warning
        return logger
    }()

    @Test func editsBatchesAndPatches() async throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL, n INTEGER NOT NULL)")
            for id in 1...1000 { try db.execute(sql: "INSERT INTO item (id, title, n) VALUES (?, 'item', 0)", arguments: [id]) }
        }
        let auditPath = NSTemporaryDirectory() + "tablepages-bench-audit-\(UUID().uuidString).sqlite"
        defer {
            database.remove()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: auditPath + suffix) }
        }
        let store = try Store.openExisting(path: database.path, writable: true, logger: Self.quiet)
        var pages = PageRegistry()
        let writers = try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: try DatabaseAuditTrail.sqlite(path: auditPath), logger: Self.quiet)
        let items = try writers.writer(forTable: "item")
        let author = WriteAuthor(actorID: "token:bench:0", name: "bench", channel: .api)
        store.startWatching()
        defer { store.stopWatching() }

        // One client, each edit checked against the row it last saw.
        var rows: [Int64: [String: SQLValue]] = [:]
        for id in Int64(1)...100 { rows[id] = try await items.row(RowKey([.integer(id)])) }
        let one = 1000
        var done = 0
        let seconds = try await WriteBenchmarkFigures.seconds {
            for step in 0..<one {
                let id = Int64(step % 100 + 1)
                rows[id] = try await items.update(RowKey([.integer(id)]), set: ["n": .integer(step)], seen: rows[id], by: author)
                done += 1
            }
        }
        Self.figures.rate("checked edits, one client", count: done, seconds: seconds)

        // Four clients at once, each on rows of its own.
        let perClient = 500
        let concurrent = try await WriteBenchmarkFigures.seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        var seen: [String: SQLValue]? = try await items.row(RowKey([.integer(Int64(200 + client))]))
                        for step in 0..<perClient {
                            seen = try await items.update(RowKey([.integer(Int64(200 + client))]), set: ["n": .integer(step)], seen: seen, by: author)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        Self.figures.rate("checked edits, four clients at once", count: 4 * perClient, seconds: concurrent)

        // A pasted batch of 1,000 rows, one transaction; three times, the median.
        var batches: [Double] = []
        for round in 0..<3 {
            let batch = (0..<1000).map { ["title": SQLValue.text("pasted \(round)-\($0)"), "n": SQLValue.integer($0)] }
            batches.append(try await WriteBenchmarkFigures.seconds { _ = try await items.insert(batch, by: author) })
        }
        Self.figures.duration("a batch of 1,000 rows (median of 3)", seconds: batches.sorted()[1])

        // Edit → the patch on a viewer's live stream of the table.
        try await withSite(pages: pages) { server, _ in
            let samples = try await WriteBenchmarkFigures.editToPatch(port: server.port, stream: "/pages/item/events?format=json") { step, marker in
                _ = try await items.update(RowKey([.integer(Int64(step % 50 + 1))]), set: ["title": .text(marker)], seen: nil, by: author)
            }
            Self.figures.percentiles("edit to the viewer's patch", samples: samples)
        }
    }
}
