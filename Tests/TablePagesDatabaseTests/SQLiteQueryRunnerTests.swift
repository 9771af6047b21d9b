import Foundation
import GRDB
@testable import TablePagesDatabase
@testable import TablePagesTestSupport
import TableStore
import Testing

@Suite struct SQLiteQueryRunnerTests {
    static func database() throws -> TestDatabase {
        try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, total REAL, note BLOB);
                CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW paid AS SELECT o.id, c.name FROM orders o JOIN customer c ON c.id = o.id WHERE status = 'paid';
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
                INSERT INTO orders SELECT i, CASE i % 3 WHEN 0 THEN 'paid' WHEN 1 THEN 'open' ELSE NULL END, i * 1.5, x'00ff' FROM n;
                INSERT INTO customer VALUES (3, 'Ida Meyer');
                """)
        }
    }

    static func refusal(_ runner: SQLiteQueryRunner, _ sql: String) -> String? {
        do {
            _ = try runner.run(sql, parameters: [:])
            return nil
        } catch let refusal as QueryRefusal {
            return refusal.message
        } catch {
            return "not a refusal: \(error)"
        }
    }

    @Test func runsASelectWithNamedParametersAndSaysWhichTablesItReads() throws {
        let database = try Self.database()
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        let result = try runner.run("SELECT status, count(*) AS n FROM orders WHERE status = :status OR id = :id GROUP BY status", parameters: ["status": "paid", "id": "1"])
        #expect(result.columns == ["status", "n"])
        #expect(result.rows == [[.text("open"), .integer(1)], [.text("paid"), .integer(16)]])
        #expect(!result.truncated)
        #expect(result.tables == ["orders"])
        // Through a view: the tables under it (and the view). A missing parameter is empty text.
        let view = try runner.run("SELECT * FROM paid WHERE name <> :nobody", parameters: [:])
        #expect(view.rows == [[.integer(3), .text("Ida Meyer")]])
        #expect(view.tables == ["orders", "customer", "paid"])
    }

    @Test func stopsAtTheRowAndByteLimitsAndSaysSo() throws {
        let database = try Self.database()
        defer { database.remove() }
        var limits = QueryLimits()
        limits.rows = 7
        let runner = try SQLiteQueryRunner(path: database.path, limits: limits)
        let result = try runner.run("SELECT id FROM orders", parameters: [:])
        #expect(result.rows.count == 7 && result.truncated)
        #expect(try runner.run("SELECT id FROM orders LIMIT 7", parameters: [:]).truncated == false)
        limits.rows = 1000
        // A row of `id, note` is 590 bytes as the answers write it: (24 + 6 + 48) for the
        // number and (36 + 10 + 48) for the two-byte blob, base64 in JSON (column names as JSON and
        // HTML), and a live page's links to the row, for the row and for its blob shown as its size
        // (2 × (3 × 27 + 128) for the SQL's 27 bytes).
        limits.bytes = 6_000
        let small = try SQLiteQueryRunner(path: database.path, limits: limits)
        let bounded = try small.run("SELECT id, note FROM orders", parameters: [:])
        #expect(bounded.truncated && bounded.rows.count == 10)
    }

    @Test func aValueLargerThanTheByteLimitFailsAtOnceWithoutBeingMade() throws {
        let database = try Self.database()
        defer { database.remove() }
        var limits = QueryLimits()
        limits.bytes = 1 << 20
        let runner = try SQLiteQueryRunner(path: database.path, limits: limits)
        // Each once took seconds and gigabytes in one call the progress handler cannot stop
        // (issue 29, items 3 and 5).
        for sql in [
            "SELECT zeroblob(100000000)", "SELECT randomblob(300000000)", "SELECT length(zeroblob(100000000))",
            "SELECT length(printf('%.*c', 900000000, 'x')) + length(printf('%.*c', 900000000, 'x')) + length(printf('%.*c', 900000000, 'x'))",
            "SELECT replace(printf('%.*c', 1000000, 'x'), 'x', 'xx')",
        ] {
            let started = ContinuousClock.now
            let message = Self.refusal(runner, sql)
            #expect(message?.hasPrefix("A value is larger than the size limit (1 MiB, --sql-result-size)") == true, "\(sql): \(message ?? "ran")")
            #expect(ContinuousClock.now - started < .seconds(2), "\(sql)")
        }
        let pattern = String(repeating: "%a", count: 60)
        #expect(Self.refusal(runner, "SELECT 'abc' LIKE '\(pattern)'")?.contains("LIKE or GLOB pattern too complex") == true)
        #expect(try runner.run("SELECT length(zeroblob(1000))", parameters: [:]).rows == [[.integer(1000)]])
    }

    @Test func aRowPastTheByteLimitIsLeftOutAndAFirstOneIsRefused() throws {
        let database = try Self.database()
        defer { database.remove() }
        var limits = QueryLimits()
        limits.bytes = 1 << 20
        let runner = try SQLiteQueryRunner(path: database.path, limits: limits)
        // 600,000 zero bytes are 3.6 MB of JSON ("\u0000" each): within SQLite's limit, past the answer's.
        let message = Self.refusal(runner, "SELECT zeroblob(600000) AS z")
        #expect(message?.hasPrefix("The first row is larger than the size limit (1 MiB") == true, "\(message ?? "ran")")
        let result = try runner.run("SELECT 'small' UNION ALL SELECT zeroblob(600000) UNION ALL SELECT 'after'", parameters: [:])
        #expect(result.rows == [[.text("small")]] && result.truncated)
        // Many columns, each within the limit, that together pass it.
        let wide = "SELECT " + Array(repeating: "printf('%.*c', 300000, 'x')", count: 5).joined(separator: ", ") + " FROM orders"
        #expect(Self.refusal(runner, wide)?.hasPrefix("The first row is larger") == true)
    }

    @Test func refusesWritesAttachPragmaSettingsAndFileFunctionsSayingWhy() throws {
        let database = try Self.database()
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        let cases: [(sql: String, says: String)] = [
            ("INSERT INTO orders (status) VALUES ('x')", "would insert rows"),
            ("UPDATE orders SET status = 'x'", "would update rows"),
            ("DELETE FROM orders", "would delete rows"),
            ("DROP TABLE orders", "Only SELECT"),
            ("CREATE TEMP TABLE t (x)", "Only SELECT"),
            ("BEGIN", "transaction"),
            ("ATTACH DATABASE '/tmp/other.db' AS other", "ATTACH is refused"),
            ("PRAGMA query_only = 0", "PRAGMA query_only = 0 is refused"),
            ("PRAGMA user_version = 3", "changes a setting"),
            ("PRAGMA writable_schema", "only PRAGMAs that report"),
            ("SELECT load_extension('/tmp/evil.so')", "load_extension() is refused"),
            ("SELECT fts3_tokenizer('simple')", "fts3_tokenizer() is refused"),
            ("WITH x AS (SELECT 1) DELETE FROM orders", "would delete rows"),
            ("SELECT * FROM orders WHERE id = ?", "Name every parameter"),
            ("SELECT * FRM orders", "syntax error"),
            ("SELECT * FROM nowhere", "no such table: nowhere"),
            ("SELECT 1; SELECT 2", "multiple statements"),
            ("SELECT 1; DELETE FROM orders", "would delete rows"),
            ("   ", "Write a SELECT"),
        ]
        for (sql, says) in cases {
            let message = Self.refusal(runner, sql)
            #expect(message?.contains(says) == true && message?.hasPrefix("not a refusal") == false, "\(sql): \(message ?? "ran")")
        }
        // Nothing was written, and reporting PRAGMAs still run.
        for (sql, count) in [("SELECT count(*) FROM orders", 1), ("PRAGMA table_info(orders)", 4), ("SELECT name FROM pragma_table_info('orders')", 4), ("PRAGMA user_version", 1)] {
            do {
                #expect(try runner.run(sql, parameters: [:]).rows.count == count, "\(sql)")
            } catch {
                Issue.record("\(sql): \(error)")
            }
        }
        #expect(try runner.run("SELECT count(*) FROM orders", parameters: [:]).rows == [[.integer(50)]])
    }

    @Test func stopsAQueryAtTheTimeLimit() throws {
        let database = try Self.database()
        defer { database.remove() }
        var limits = QueryLimits()
        limits.time = .milliseconds(100)
        let runner = try SQLiteQueryRunner(path: database.path, limits: limits)
        let started = ContinuousClock.now
        #expect(throws: QueryTimeLimitExceeded.self) {
            _ = try runner.run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n", parameters: [:])
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(try runner.run("SELECT 1", parameters: [:]).rows == [[.integer(1)]])
    }
}

@Suite struct SQLiteQueryCheckTests {
    @Test func checksWhatRunWouldRefuseWithTheSameMessageAndRunsNothing() throws {
        let database = try SQLiteQueryRunnerTests.database()
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        for sql in ["SELECT * FROM nowhere", "selct 1", "DELETE FROM orders", "SELECT 1; SELECT 2", "SELECT * FROM orders WHERE id = ?",
                    "ATTACH DATABASE 'x.db' AS x", "PRAGMA query_only = 0", "SELECT readfile('/etc/passwd')", "   "] {
            let ran = SQLiteQueryRunnerTests.refusal(runner, sql)
            var checked: String?
            do { try runner.check(sql) } catch let refusal as QueryRefusal { checked = refusal.message }
            #expect(ran != nil && checked == ran, "\(sql)")
        }
        // Parameters need no values to be checked; the rows are not read (a query that would run
        // for ever is checked at once).
        try runner.check("SELECT * FROM orders WHERE status = :status AND id > :after")
        try runner.check("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
    }

    @Test func checkQueriesNamesTheFileTheQueryAndTheDatabasesMessage() throws {
        let database = try SQLiteQueryRunnerTests.database()
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        let good = CannedQuery(name: "a", sql: "SELECT id FROM orders WHERE status = :status")
        try SiteConfiguration(queries: [good]).checkQueries(with: runner, path: "site.json")
        let bad = SiteConfiguration(queries: [good, CannedQuery(name: "by city", sql: "SELECT nme FROM customer")])
        #expect(throws: ConfigurationError(path: "site.json", location: "queries.by city.sql", problem: "no such column: nme")) {
            try bad.checkQueries(with: runner, path: "site.json")
        }
    }
}
