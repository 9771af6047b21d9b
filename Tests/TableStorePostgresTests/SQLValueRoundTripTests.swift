import Foundation
import HTTPTestSupport
import HostileTextSupport
import PropertyBased
import TableStore
import TableStorePostgres
import Testing

/// The one value type through both databases: what a page binds is what it reads back, and equal
/// values hash alike.
@Suite("SQLValue round trips", .serialized)
struct SQLValueRoundTripTests {
    /// Integers at the edges and anywhere between.
    static let integers = Gen.oneOf(
        Gen.element(of: [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max]).map { $0! },
        Gen<UInt64>.value(in: 0...UInt64.max).map { Int64(bitPattern: $0) }
    )
    /// Any double's bits: subnormals, ±0, ±infinity and NaNs included.
    static let reals = Gen.oneOf(
        Gen.element(of: [Double.infinity, -Double.infinity, Double.nan, -0.0, 0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]).map { $0! },
        Gen<UInt64>.value(in: 0...UInt64.max).map { Double(bitPattern: $0) }
    )
    /// Text of any scalars but NUL, which PostgreSQL's text refuses and SQLite's C strings end at.
    /// (By scalars: a NUL followed by a combining mark is one character with it.)
    static let texts = HostileText.text.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0 != "\u{0}" })) }
    static let blobs = Gen<UInt8>.value(in: 0...255).array(of: 0...64).map { Data($0) }

    static let values = zip(Gen.int(in: 0...5), integers, reals, texts, blobs, Gen.bool).map { kind, integer, real, text, blob, flag -> SQLValue in
        switch kind {
        case 0: .null
        case 1: .integer(integer)
        case 2: .real(real)
        case 3: .text(text)
        case 4: .blob(blob)
        default: .bool(flag)
        }
    }

    /// What `store` gives back for `value` bound and selected: the value itself, but for what its
    /// database cannot hold (SQLite: a boolean is 0 or 1, NaN is NULL).
    static func expected(_ value: SQLValue, on dialect: SQLDialect) -> SQLValue {
        guard dialect == .sqlite else { return value }
        switch value {
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .real(let real) where real.isNaN: return .null
        default: return value
        }
    }

    /// Whether `read` is `bound`, a NaN matching any NaN and a zero its sign.
    static func same(_ read: SQLValue, _ bound: SQLValue) -> Bool {
        switch (read, bound) {
        case let (.real(left), .real(right)): left.isNaN ? right.isNaN : left.bitPattern == right.bitPattern
        case (.real, _), (_, .real): false
        default: read == bound
        }
    }

    static func check(_ store: any SQLStore) async {
        await propertyCheckFailingOnThrow(input: values.array(of: 1...8)) { row in
            let read = try await onThread {
                try store.snapshot { db in
                    let placeholders = Array(repeating: "?", count: row.count).joined(separator: ", ")
                    return try db.row("SELECT \(placeholders)", row)
                }
            }
            let values = try #require(read).values
            #expect(values.count == row.count)
            for (read, bound) in zip(values, row) {
                #expect(same(read, expected(bound, on: store.dialect)), "\(bound) read back as \(read)")
            }
        }
    }

    @Test("SQLite: integers at the edges, any real, text, blobs and booleans read back as bound")
    func sqlite() async throws {
        let store = try Store.open(path: NSTemporaryDirectory() + "/sqlvalue-\(UUID().uuidString).sqlite", migrator: .init())
        await Self.check(store)
    }

    @Test(
        "PostgreSQL: the same, NaN and booleans included",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/postgresql"), "needs Debian's postgresql (make test-deps)")
    )
    func postgresql() async throws {
        let cluster = try await onThread { try PostgresTestCluster() }
        defer { cluster.stop() }
        let store = try PostgresStore(url: try PostgresURL(cluster.url))
        let running = Task { try await store.run() }
        defer {
            store.stop()
            running.cancel()
        }
        await Self.check(store)
    }

    @Test("Equal values hash alike: the integer n and the real n are one value; NaN equals nothing")
    func equalValuesHashAlike() async {
        await propertyCheckFailingOnThrow(input: Self.values, Self.values) { one, other in
            if one == other { #expect(one.hashValue == other.hashValue, "\(one) and \(other)") }
        }
        await propertyCheckFailingOnThrow(input: Self.integers) { integer in
            let real = Double(integer)
            if Int64(exactly: real) == integer {
                #expect(SQLValue.integer(integer) == .real(real))
                #expect(Set([SQLValue.integer(integer), .real(real)]).count == 1)
            } else {
                #expect(SQLValue.integer(integer) != .real(real))
            }
        }
        #expect(SQLValue.real(.nan) != .real(.nan))
        #expect(SQLValue.text("1") != .integer(1))
        #expect(SQLValue.blob(Data("a".utf8)) != .text("a"))
    }
}
