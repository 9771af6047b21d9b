import TableStore
import GRDB
import HostileTextSupport
import PropertyBased
import Testing
@testable import TablePagesDatabase

@Suite("SQL dialects: one query builder for SQLite and PostgreSQL", .shrinking(false))
struct SQLDialectTests {
    /// `?` outside quotes, in order: the placeholders a statement carries.
    static func placeholderCount(_ sql: String) -> Int {
        var quote: Unicode.Scalar?
        var count = 0
        for scalar in sql.unicodeScalars {
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "?" {
                count += 1
            }
        }
        return count
    }

    @Test("PostgreSQL placeholders are numbered in order, and quoted names and literals are left whole")
    func numbering() async {
        await propertyCheckFailingOnThrow(input: HostileText.text.array(of: 3)) { names in
            let quoted = names.map(SQLIdentifier.quoted)
            let sql = "SELECT \(quoted[0]) FROM \(quoted[1]) WHERE \(quoted[2]) = ? AND \(quoted[0]) LIKE ? ESCAPE '\\' AND (\(quoted[1]), \(quoted[2])) > (?, ?)"
            let numbered = SQLDialect.postgresql.numberingPlaceholders(sql)
            #expect(numbered == sql.replacingOccurrences(of: "= ?", with: "= $1").replacingOccurrences(of: "LIKE ?", with: "LIKE $2").replacingOccurrences(of: "(?, ?)", with: "($3, $4)"))
            for name in quoted { #expect(numbered.contains(name)) }
            #expect(Self.placeholderCount(numbered) == 0)
            #expect(SQLDialect.sqlite.numberingPlaceholders(sql) == sql)
        }
    }

    /// A PostgreSQL table with an integer key, a text column and a hostile name.
    static let postgresSchema: DatabaseTableSchema = {
        var schema = DatabaseTableSchema(name: "t\"?", columns: ["id", "n", "w?\""], key: ["id"], keyIsRowID: true, defaultSort: nil)
        schema.dialect = .postgresql
        schema.columnTypes = ["id": "integer", "n": "numeric", "w?\"": "text"]
        schema.namespace = "public"
        return schema
    }()

    @Test("PostgreSQL filters cast their text to the column's type; LIKE filters are ILIKE on the text")
    func postgresFilters() {
        let schema = Self.postgresSchema
        let exact = DatabaseFilter(column: "n", comparison: .gt, value: "2e3").clause(in: schema)
        #expect(exact.sql == "\"n\" > CAST(? AS numeric)")
        #expect(exact.arguments == [SQLValue.text("2e3")], "PostgreSQL reads the text; it is not made a number first")
        let contains = DatabaseFilter(column: "w?\"", comparison: .contains, value: "a%").clause(in: schema)
        #expect(contains.sql == "\"w?\"\"\"::text ILIKE ? ESCAPE '\\'")
        #expect(contains.arguments == [SQLValue.text("%a\\%%")])
        #expect(DatabaseFilter(column: "id", comparison: .in, value: "[]").clause(in: schema).sql == "FALSE")
        #expect(DatabaseFilter(column: "id", comparison: .notin, value: "[]").clause(in: schema).sql == "TRUE")
        #expect(DatabaseFilter(column: "id", comparison: .in, value: "1,2").clause(in: schema).sql == "\"id\" IN (CAST(? AS integer), CAST(? AS integer))")
    }

    @Test("PostgreSQL pages name the schema, read other types as text and order NULL as SQLite does")
    func postgresReader() {
        let schema = Self.postgresSchema
        #expect(schema.quotedName == "\"public\".\"t\"\"?\"")
        #expect(schema.selected("n") == "\"n\"::text")
        #expect(schema.selected("id") == "\"id\"")
        let reader = DatabaseTableReader(database: NoDatabase(), schema: schema, query: DatabaseTableQuery(sort: "n", descending: true))
        // Qualified: `"n"` alone would be the output column, the text `selected` makes of it.
        // The key holds no NULL: its order says nothing of them, so its index serves it.
        #expect(reader.orderBy() == " ORDER BY \"public\".\"t\"\"?\".\"n\" DESC NULLS LAST, \"public\".\"t\"\"?\".\"id\" DESC")
        #expect(reader.orderBy(reversed: true) == " ORDER BY \"public\".\"t\"\"?\".\"n\" NULLS FIRST, \"public\".\"t\"\"?\".\"id\"")
        // Nor does a column declared NOT NULL.
        var notNull = schema
        notNull.notNullColumns = ["n"]
        let sorted = DatabaseTableReader(database: NoDatabase(), schema: notNull, query: DatabaseTableQuery(sort: "n", descending: true))
        #expect(sorted.orderBy() == " ORDER BY \"public\".\"t\"\"?\".\"n\" DESC, \"public\".\"t\"\"?\".\"id\" DESC")
        let sqlite = DatabaseTableReader(database: NoDatabase(), schema: DatabaseTableSchema(name: "t", columns: ["n"], key: ["rowid"], keyIsRowID: true, defaultSort: nil), query: DatabaseTableQuery(sort: "n"))
        #expect(sqlite.orderBy() == " ORDER BY \"n\", \"rowid\"")
    }

    /// A database for building SQL only.
    struct NoDatabase: SQLReader {
        var dialect: SQLDialect { .postgresql }
        func snapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T {
            throw CancellationError()
        }
    }
}
