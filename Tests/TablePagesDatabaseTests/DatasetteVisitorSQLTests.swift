import Foundation
import GRDB
import HostileTextSupport
import PropertyBased
import TableStore
@testable import TablePagesDatabase
import Testing

/// `_where`'s page SQL: the page's own values are written into it as literals (the SQL page's
/// runner binds no positional values), and each must read back as the same value.
@Suite struct DatasetteVisitorSQLTests {
    /// Any value: integers, reals of every magnitude, hostile text, bytes, NULL.
    static let values = zip(Gen.int(in: 0...4), Gen<Int64>.value(in: Int64.min...Int64.max), DatasetteJSONTests.doubles, HostileText.text)
        .map { kind, integer, real, text -> SQLValue in
            switch kind {
            case 0: .integer(integer)
            case 1: .real(real)
            case 2: .text(text)
            case 3: .blob(Data(text.utf8))
            default: .null
            }
        }

    @Test func literalsReadBackAsTheSameValues() async throws {
        let queue = try DatabaseQueue()
        await propertyCheckFailingOnThrow(input: Self.values.array(of: 1...4)) { values in
            let marks = values.map { _ in "?" }.joined(separator: ", ")
            let clause = DatasetteTableReader.withVisitorSQL(SQLClause(sql: " WHERE x IN (\(marks)) AND \"a?b\" = '?'", arguments: values), "1")
            #expect(clause.arguments.isEmpty && clause.sql.hasSuffix(" AND 1") && clause.sql.contains("\"a?b\" = '?'"))
            for value in values {
                // Compared inside SQLite: reading text back through Swift would stop at a zero byte.
                let literal = DatasetteTableReader.literal(value)
                // SQLite's reading of a decimal may be a unit in the last place off at the extremes.
                let same = try queue.read { db in
                    try Bool.fetchOne(db, sql: """
                        SELECT ((\(literal)) IS ?1 OR abs((\(literal)) - ?1) <= abs(?1) * 4e-16) AND typeof(\(literal)) = typeof(?1)
                        """, arguments: [value.databaseValue])
                }
                #expect(same == true, "\(value) as \(literal.prefix(200))")
            }
        }
    }
}
