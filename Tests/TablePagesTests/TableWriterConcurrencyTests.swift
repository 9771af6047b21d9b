import Foundation
import GRDB
import HostileTextSupport
import HTTPTestSupport
import PropertyBased
import Synchronization
import TableStore
import Testing
@testable import TablePages
@testable import TablePagesDatabase

/// Several clients editing one table at once through the writer — cells, inserts, deletes, edits
/// made on stale values — and then: the audit trail, replayed in commit order from the first
/// state, is a chain (each write found the row as the one before left it, and as its client saw
/// it) that ends in exactly the database; every acknowledged write is in it, every refused one not.
@Suite("Concurrent edits through the writer", .shrinking(false))
struct TableWriterConcurrencyTests {
    /// One client's step: what it does, to which of the rows it knows, and the text it writes.
    struct Step: Sendable {
        var kind: Int
        var pick: Int
        var text: String
    }

    /// What a client was told.
    enum Outcome: Sendable {
        case updated(key: RowKey, seen: [String: SQLValue], after: [String: SQLValue])
        case inserted(key: RowKey, values: [String: SQLValue])
        case deleted(key: RowKey, seen: [String: SQLValue])
        case refused(TableWriteError)
    }

    /// The rows of `cell` by their keys.
    static func rows(of store: Store) throws -> [RowKey: [String: SQLValue]] {
        try store.read { db in
            var rows: [RowKey: [String: SQLValue]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, v, n FROM cell") {
                let id = SQLValue(row["id"] as DatabaseValue)
                rows[RowKey([id])] = ["id": id, "v": SQLValue(row["v"] as DatabaseValue), "n": SQLValue(row["n"] as DatabaseValue)]
            }
            return rows
        }
    }

    static let steps = zip(Gen.int(in: 0...9), Gen.int(in: 0...99), zip(Gen.int(in: 0...3), HostileText.text).map { choice, text in
        // Mostly a few short values, so that clients collide; now and then a hostile one.
        choice == 0 ? String(text.unicodeScalars.filter { $0 != "\u{0}" }.prefix(40)) : ["a", "b", "c"][choice - 1]
    }).map { Step(kind: $0, pick: $1, text: $2) }

    /// Runs `steps` as one client: it knows the rows it read at its start (and what it wrote
    /// since), and edits them on those values, however stale.
    static func client(_ steps: [Step], writer: TableWriter, author: WriteAuthor, start: [RowKey: [String: SQLValue]]) async -> [Outcome] {
        var known = start
        var outcomes: [Outcome] = []
        for step in steps {
            let keys = known.keys.sorted { $0.description < $1.description }
            do throws(TableWriteError) {
                switch step.kind {
                case 0...5 where !keys.isEmpty:
                    let key = keys[step.pick % keys.count]
                    let seen = known[key] ?? [:]
                    let after = try await writer.update(key, set: ["v": .text(step.text), "n": .integer(step.pick)], seen: seen, by: author)
                    known[key] = after
                    outcomes.append(.updated(key: key, seen: seen, after: after))
                case 6...7 where !keys.isEmpty:
                    let key = keys[step.pick % keys.count]
                    let seen = known[key] ?? [:]
                    try await writer.delete(key, seen: seen, by: author)
                    known[key] = nil
                    outcomes.append(.deleted(key: key, seen: seen))
                default:
                    let keys = try await writer.insert([["v": .text(step.text), "n": .integer(step.pick)]], by: author)
                    let values = (try? await writer.row(keys[0])) ?? nil
                    known[keys[0]] = values
                    outcomes.append(.inserted(key: keys[0], values: values ?? [:]))
                }
            } catch {
                outcomes.append(.refused(error))
                // A refused client reads the row again, as the editor shows "theirs".
                if case .conflict = error, !keys.isEmpty {
                    let key = keys[step.pick % keys.count]
                    known[key] = (try? await writer.row(key)) ?? nil
                }
            }
        }
        return outcomes
    }

    @Test func theAuditTrailReplaysToTheDatabaseAndEveryAcknowledgedWriteIsInIt() async throws {
        let conflicts = Atomic<Int>(0)
        await propertyCheckFailingOnThrow(count: 12, input: Self.steps.array(of: 5...25).array(of: 2...5)) { clients in
            let database = try TestDatabase { db in
                try db.execute(sql: "CREATE TABLE cell (id INTEGER PRIMARY KEY, v TEXT, n INTEGER NOT NULL)")
                for id in 1...6 { try db.execute(sql: "INSERT INTO cell (id, v, n) VALUES (?, 'start', 0)", arguments: [id]) }
            }
            let auditPath = NSTemporaryDirectory() + "tablepages-audit-\(UUID().uuidString).sqlite"
            defer {
                database.remove()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: auditPath + suffix) }
            }
            let audit = try DatabaseAuditTrail.sqlite(path: auditPath)
            let store = try Store.openExisting(path: database.path, writable: true)
            var pages = PageRegistry()
            let writer = try DatabaseTablePages.registerWritable(store: store, in: &pages, audit: audit).writer(forTable: "cell")
            let start = try await OwnThread.run { try Self.rows(of: store) }

            let outcomes = await withTaskGroup(of: [Outcome].self) { group in
                for (index, steps) in clients.enumerated() {
                    let author = WriteAuthor(actorID: "token:client\(index):0", name: "client \(index)", channel: index % 2 == 0 ? .api : .browser)
                    group.addTask { await Self.client(steps, writer: writer, author: author, start: start) }
                }
                var all: [Outcome] = []
                for await outcomes in group { all += outcomes }
                return all
            }

            // Replay the trail, oldest first, from the first state: each entry found the row as
            // the model has it, so no write was lost or made on values other than those it checked.
            let records = try await OwnThread.run { try audit.records(before: nil, limit: 100_000, tables: nil) }.reversed()
            var model = start
            for record in records {
                let entry = record.entry
                #expect(entry.old == model[entry.key], "entry \(record.id) found the row as the writes before left it")
                model[entry.key] = entry.new
            }
            let now = try await OwnThread.run { try Self.rows(of: store) }
            #expect(model == now, "the replayed trail ends in the database")

            // Every acknowledged write is in the trail, as its client was told; refused ones are not.
            var acknowledged = 0
            for outcome in outcomes {
                switch outcome {
                case .updated(let key, let seen, let after):
                    acknowledged += 1
                    #expect(records.contains { $0.entry.key == key && $0.entry.action == .update && $0.entry.old == seen && $0.entry.new == after })
                case .inserted(let key, _):
                    acknowledged += 1
                    #expect(records.contains { $0.entry.key == key && $0.entry.action == .insert })
                case .deleted(let key, let seen):
                    acknowledged += 1
                    #expect(records.contains { $0.entry.key == key && $0.entry.action == .delete && $0.entry.old == seen })
                case .refused(let error):
                    // Only conflicts (stale values, a row gone) are refused here, each said so.
                    guard case .conflict = error else {
                        Issue.record("refused for another reason: \(error)")
                        continue
                    }
                    conflicts.add(1, ordering: .relaxed)
                }
            }
            #expect(records.count == acknowledged, "one trail entry per acknowledged write, none for a refused one")
        }
        #expect(conflicts.load(ordering: .relaxed) > 0, "stale edits were made, and refused")
    }
}
