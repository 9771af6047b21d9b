import GRDB
import Synchronization
import TableStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Query time limit")
struct QueryTimeLimitTests {
    /// A read that counts to `count` with a recursive CTE: no table, pure SQLite work (about
    /// 10 million rows a second), as slow as asked.
    static func countTo(_ count: Int, in store: Store) throws -> Int? {
        try store.read { db in
            try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ?) SELECT count(*) FROM c", arguments: [count])
        }
    }

    @Test func aReadPastTheLimitIsStoppedSoonAfterItWithAnErrorThatNamesTheLimit() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        store.queryTimeLimit = .milliseconds(100)
        let clock = ContinuousClock()
        let start = clock.now
        // Hundreds of seconds of work without the limit.
        #expect {
            _ = try Self.countTo(5_000_000_000, in: store)
        } throws: { error in
            (error as? QueryTimeLimitExceeded)?.milliseconds == 100
                && "\(error)" == "the query took longer than the time limit of 100 ms"
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(100))
        #expect(elapsed < .milliseconds(600), "stopped \(elapsed) after the start")
    }

    @Test func theDefaultLimitIsOneSecondAndReadsWithinItAreUnaffected() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        #expect(store.queryTimeLimit == .seconds(1))
        #expect(try Self.countTo(100_000, in: store) == 100_000)
    }

    @Test func aStoppedReadLeavesNoLimitBehindOnItsConnection() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        store.queryTimeLimit = .milliseconds(20)
        #expect(throws: QueryTimeLimitExceeded.self) { try Self.countTo(5_000_000_000, in: store) }
        // Without a limit, a read longer than the old one completes on the same connections, and
        // writes still work.
        store.queryTimeLimit = nil
        #expect(store.queryTimeLimit == nil)
        #expect(try Self.countTo(3_000_000, in: store) == 3_000_000)
        try store.write { try $0.execute(sql: "INSERT INTO item (title) VALUES ('after')") }
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 1)
    }

    @Test func limitsKeepTheirValueToTheNanosecond() throws {
        let store = try Store.open(path: StoreTests.temporaryPath(), migrator: StoreTests.migrator)
        for limit: Duration in [.nanoseconds(1), .milliseconds(1), .milliseconds(1500), .seconds(3600)] {
            store.queryTimeLimit = limit
            #expect(store.queryTimeLimit == limit)
            #expect(QueryTimeLimitExceeded(limit: limit).milliseconds == limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        }
    }
}

@Suite("Query time limit setting")
struct QueryTimeLimitSettingTests {
    @Test func keepsWholeMultiplesOfItsResolutionAndNothingShorter() {
        let setting = QueryTimeLimitSetting(.seconds(1), resolution: .milliseconds(1))
        #expect(setting.limit == .seconds(1))
        #expect(setting.milliseconds == 1000)
        setting.limit = .microseconds(2_500)
        #expect(setting.limit == .milliseconds(2))
        setting.limit = .microseconds(500)
        #expect(setting.limit == nil)
        #expect(setting.milliseconds == 0)
        setting.limit = .milliseconds(-5)
        #expect(setting.limit == nil)
    }

    @Test func aNanosecondSettingKeepsTheDurationAndSaturatesAHugeOne() {
        let setting = QueryTimeLimitSetting(nil)
        #expect(setting.limit == nil)
        setting.limit = .nanoseconds(1_234_567)
        #expect(setting.limit == .nanoseconds(1_234_567))
        setting.limit = .seconds(Int64.max / 2)
        #expect(setting.limit == .nanoseconds(Int64.max))
    }
}
