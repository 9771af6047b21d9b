import Foundation
import GRDB
import HostileTextSupport
import PropertyBased
@testable import TablePagesDatabase
@testable import TablePagesTestSupport
import TableStore
import Testing

@Suite struct SQLiteBoundedFunctionsTests {
    /// Texts from a few characters, so that one often holds another; some hostile ones too.
    static let text = zip(Gen.bool, Gen.element(of: ["a", "b", "é", "\u{0}", " ", "ab", "x\u{301}"]).array(of: 0...8), HostileText.text)
        .map { small, pieces, hostile in small ? pieces.map { $0 ?? "" }.joined() : hostile }

    static func compare(_ sql: String, _ values: [String: String], runner: SQLiteQueryRunner, sqlite: DatabaseQueue) throws {
        let ours = try runner.run(sql, parameters: values).rows
        let arguments = StatementArguments(values.mapValues { $0 as (any DatabaseValueConvertible)? })
        let theirs = try sqlite.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map { Array($0.databaseValues.map(SQLValue.init)) } }
        #expect(ours == theirs, "\(sql) with \(values)")
    }

    @Test func answerAsSQLitesOwnDo() async throws {
        let database = try TestDatabase { try $0.execute(sql: "CREATE TABLE t (x)") }
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        let sqlite = try DatabaseQueue()
        await propertyCheckFailingOnThrow(input: Self.text, Self.text, Self.text) { a, b, c in
            let values = ["a": a, "b": b, "c": c]
            for sql in [
                "SELECT instr(:a, :b), instr(CAST(:a AS BLOB), CAST(:b AS BLOB)), instr(CAST(:a AS BLOB), :b), instr(:a, NULL)",
                "SELECT replace(:a, :b, :c), replace(:a, '', :c), replace(NULL, :b, :c), replace(:a, :b, NULL)",
                "SELECT trim(:a, :b), ltrim(:a, :b), rtrim(:a, :b), trim(:a, NULL), trim(:a, '')",
                "SELECT printf('%s|%5.2s|%-4d|%c|%%|%.*c|%q', :a, :b, :c, :a, 3, :b, :c), format('%*s', 4, :a), printf(NULL), printf(:a)",
            ] {
                try Self.compare(sql, values, runner: runner, sqlite: sqlite)
            }
        }
    }

    @Test func runLinearlyWhereSQLitesOwnRunQuadratically() throws {
        let database = try TestDatabase { try $0.execute(sql: "CREATE TABLE t (x)") }
        defer { database.remove() }
        let runner = try SQLiteQueryRunner(path: database.path, limits: QueryLimits())
        // SQLite's own: a 400 kB text and a 20 kB one took 0.12 s (instr) and over 100 s (trim) of CPU.
        let a = "printf('%.*c', 1000000, 'a')", b = "(printf('%.*c', 500000, 'a') || 'b')"
        for (sql, answer) in [
            ("SELECT instr(\(a), \(b))", SQLValue.integer(0)), ("SELECT length(replace(\(a), \(b), ''))", .integer(1_000_000)),
            ("SELECT length(trim(\(a), printf('%.*c', 500000, 'b') || 'c'))", .integer(1_000_000)),
            ("SELECT length(trim(\(a), printf('%.*c', 500000, 'b') || 'a'))", .integer(0)),
        ] {
            let started = ContinuousClock.now
            #expect(try runner.run(sql, parameters: [:]).rows == [[answer]], "\(sql)")
            #expect(ContinuousClock.now - started < .seconds(3), "\(sql)")
        }
    }

    @Test func printfRefusesWidthsThatAddUpPastTheLimit() {
        func width(_ template: String, _ arguments: [Int64] = []) -> Int {
            SQLiteBoundedFunctions.requestedWidth(of: Array(template.utf8)) { $0 <= arguments.count ? arguments[$0 - 1] : 0 }
        }
        #expect(width("%.*c", [900_000_000]) == 900_000_000)
        #expect(width("%s %10d %-5.3s %%", [1, 2, 3]) == 15)
        #expect(width("%*.*c", [-7, 9, 0]) == 9)
        #expect(width("%.99999999999999999999c") == Int(Int32.max))
        #expect(width(String(repeating: "%.2000000000c", count: 10)) == 20_000_000_000)
    }
}
