import Foundation
import GRDB
import HTTPTestSupport
import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePagesTestSupport
import TableStore
@testable import TablePages
@testable import TablePagesDatabase
import Testing

@Suite("Database page filters, sorts and search against SQLite's own answers")
struct DatabaseFilterTests {
    typealias Operator = DatabaseFilter.Operator

    /// Values filters are tried with: numbers in every spelling, words in both cases, LIKE's
    /// wildcards and escape, list separators, URL and SQL punctuation, non-ASCII letters.
    static let values = ["0", "1", "2", "-1", "2.5", " 3 ", "1e0", "5.", ".5", "12.5", "0x10", "w1", "v2", "apple", "APPLE",
                         "%", "_", "\\", "a,b", "x=y&z", "ünï", "Ö1", "", "abc'def", "Apple_", "ÄRGER"]

    // MARK: Harness

    /// The things table read directly, as the pages read it.
    struct Harness {
        let database: TestDatabase
        let store: Store
        let schema: DatabaseTableSchema

        init() throws {
            database = try FilterFixture.make()
            store = try Store.openExisting(path: database.path, writable: false)
            schema = try #require(try store.read { try DatabaseTableSchema.all(in: $0) }.first { $0.name == "things" })
        }

        /// The ids of the rows the page for `query` shows (all of them: the table fits the window).
        func pageIDs(_ query: [(String, String)]) throws -> Set<Int64> {
            let parameters = try DatabaseTableQuery.resolve(query.map { (name: $0.0, value: $0.1) }, schema: schema)
            let reader = DatabaseTableReader(store: store, schema: schema, query: DatabaseTableQuery(variant: parameters, schema: schema))
            return Set(try reader.window().flatMap { $0.rows.compactMap { Int64($0.id.rawValue) } })
        }

        /// The ids SQLite finds for `sql`.
        func sqliteIDs(_ sql: String) throws -> Set<Int64> {
            Set(try store.read { try Int64.fetchAll($0, sql: sql) })
        }

        /// What SQLite answers for one filter, built apart from the pages' code: values written as
        /// SQL literals, and the LIKE operators checked in Swift on SQLite's text of each value.
        func expectedIDs(column: String, comparison: Operator, values: [String]) throws -> Set<Int64> {
            let quoted = "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let value = values.first ?? ""
            switch comparison {
            case .contains, .startswith, .endswith:
                let rows = try store.read { db in
                    // SQLite's LIKE matches no blob (`x'41' LIKE 'A'` is 0): those rows are left out.
                    try Row.fetchAll(db, sql: "SELECT id, CAST(\(quoted) AS TEXT) FROM things WHERE typeof(\(quoted)) <> 'blob'").map { ($0[0] as Int64, $0[1] as String?) }
                }
                let needle = Self.asciiFolded(value)
                return Set(rows.compactMap { id, text -> Int64? in
                    guard let text else { return nil }
                    let haystack = Self.asciiFolded(text)
                    let found = switch comparison {
                    case .startswith: haystack.starts(with: needle)
                    case .endswith: haystack.reversed().starts(with: needle.reversed())
                    default: needle.isEmpty || (0...max(0, haystack.count - needle.count)).contains { haystack[$0...].starts(with: needle) }
                    }
                    return found ? id : nil
                })
            case .isblank: return try sqliteIDs("SELECT id FROM things WHERE \(quoted) IS NULL OR \(quoted) = ''")
            case .notblank: return try sqliteIDs("SELECT id FROM things WHERE \(quoted) IS NOT NULL AND \(quoted) <> ''")
            case .like, .notlike, .glob:
                let sign = [Operator.like: "LIKE", .notlike: "NOT LIKE", .glob: "GLOB"][comparison]!
                return try sqliteIDs("SELECT id FROM things WHERE \(quoted) \(sign) \(text(value))")
            case .date: return try sqliteIDs("SELECT id FROM things WHERE date(\(quoted)) = \(text(value))")
            case .arraycontains, .arraynotcontains:
                let negation = comparison == .arraynotcontains ? "NOT " : ""
                let valid = "CASE WHEN json_valid(\(quoted)) THEN \(quoted) ELSE '[]' END"
                return try sqliteIDs("SELECT id FROM things WHERE json_valid(\(quoted)) AND \(text(value)) \(negation)IN (SELECT value FROM json_each(\(valid)))")
            case .isnull: return try sqliteIDs("SELECT id FROM things WHERE \(quoted) IS NULL")
            case .notnull: return try sqliteIDs("SELECT id FROM things WHERE \(quoted) IS NOT NULL")
            case .in, .notin:
                let list = values.map { literal($0, column: column) }.joined(separator: ", ")
                return try sqliteIDs("SELECT id FROM things WHERE \(quoted) \(comparison == .notin ? "NOT " : "")IN (\(list))")
            default:
                let sign = [Operator.exact: "=", .not: "<>", .gt: ">", .gte: ">=", .lt: "<", .lte: "<="][comparison]!
                return try sqliteIDs("SELECT id FROM things WHERE \(quoted) \(sign) \(literal(value, column: column))")
            }
        }

        /// The value as an SQL string literal, as the operators that compare text bind it.
        func text(_ value: String) -> String {
            "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }

        /// The value as an SQL literal: a number on the column without a declared type when it
        /// spells one (the pages' documented rule), else a string.
        func literal(_ value: String, column: String) -> String {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if column == FilterFixture.untypedColumn, Double(trimmed) != nil,
               trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }), trimmed.contains(where: \.isNumber) {
                return trimmed
            }
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }

        /// UTF-8 bytes with ASCII letters lower-cased: how SQLite's LIKE compares.
        static func asciiFolded(_ text: String) -> [UInt8] {
            text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
        }

        /// The request value of a list: commas when that reads back the same, else JSON.
        static func listValue(_ values: [String]) -> String {
            if !values.isEmpty, values.allSatisfy({ !$0.contains(",") && $0 == $0.trimmingCharacters(in: .whitespaces) }), !values[0].hasPrefix("[") {
                return values.joined(separator: ",")
            }
            return String(decoding: try! JSONSerialization.data(withJSONObject: values), as: UTF8.self)
        }
    }

    // MARK: Operators

    @Test func everyOperatorOnEveryColumnMatchesSQLite() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        for column in FilterFixture.columns {
            for comparison in Operator.allCases {
                let tried = comparison.takesNoValue ? ["1"] : Self.values
                for value in tried {
                    let values = [Operator.in, .notin].contains(comparison) ? [value, "1", "v2"] : [value]
                    let given = [Operator.in, .notin].contains(comparison) ? Harness.listValue(values) : value
                    let expected = try harness.expectedIDs(column: column, comparison: comparison, values: values)
                    let found = try harness.pageIDs([(column + "__" + comparison.rawValue, given)])
                    #expect(found == expected, "\(column)__\(comparison.rawValue)=\(given)")
                }
            }
        }
    }

    @Test func randomFilterCombinationsMatchSQLite() async throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        let filter = zip(
            Gen.element(of: FilterFixture.columns).map { $0 ?? "n" },
            Gen.element(of: Operator.allCases).map { $0 ?? .exact },
            Gen.element(of: Self.values).map { $0 ?? "" }.array(of: 1...4)
        )
        await propertyCheckFailingOnThrow(input: filter.array(of: 1...3)) { filters in
            var expected = Set<Int64>(1...300)
            var query: [(String, String)] = []
            var seen = Set<String>()
            for (column, comparison, values) in filters where seen.insert(column + "__" + comparison.rawValue).inserted {
                let isList = [Operator.in, .notin].contains(comparison)
                let used = isList ? values : [values[0]]
                query.append((column + "__" + comparison.rawValue, isList ? Harness.listValue(used) : used[0]))
                expected.formIntersection(try harness.expectedIDs(column: column, comparison: comparison, values: used))
            }
            #expect(try harness.pageIDs(query) == expected, "\(query)")
        }
    }

    @Test func exactFiltersNeedNoOperatorAndMatchNull() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        #expect(try harness.pageIDs([("n", "2")]) == harness.sqliteIDs("SELECT id FROM things WHERE n = 2"))
        #expect(try harness.pageIDs([("N", "2")]) == harness.sqliteIDs("SELECT id FROM things WHERE n = 2"), "names match as SQLite matches them")
        #expect(try harness.pageIDs([("r", "2.5")]) == harness.sqliteIDs("SELECT id FROM things WHERE r = 2.5"))
        #expect(try harness.pageIDs([("n__isnull", "")]).count == 42)
        #expect(try harness.pageIDs([("n__not", "2")]) == harness.sqliteIDs("SELECT id FROM things WHERE n <> 2"), "NULL is not unequal")
        #expect(try harness.pageIDs([("t__contains", "%")]) == harness.sqliteIDs("SELECT id FROM things WHERE instr(t, '%') > 0"), "% is itself")
        #expect(try harness.pageIDs([("t__startswith", "apple_")]) == harness.sqliteIDs("SELECT id FROM things WHERE t LIKE 'apple\\_%' ESCAPE '\\'"), "_ is itself; case is folded")
    }

    // MARK: Names

    /// With columns `a` and `a__gt`, `a__gt=` is `a > …` and `a__gt__exact=` is the column.
    @Test func aNameSplitsAtItsLastOperatorWhenWhatPrecedesIsAColumn() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        #expect(try harness.pageIDs([("a__gt", "3")]) == harness.sqliteIDs("SELECT id FROM things WHERE a > '3'"))
        #expect(try harness.pageIDs([("a__gt__exact", "v2")]) == harness.sqliteIDs("SELECT id FROM things WHERE \"a__gt\" = 'v2'"))
        #expect(try harness.pageIDs([("a__gt__isnull", "1")]) == harness.sqliteIDs("SELECT id FROM things WHERE \"a__gt\" IS NULL"))
        let weird = "we=ird&,\"q'"
        #expect(try harness.pageIDs([(weird, "x=y&z")]) == harness.sqliteIDs("SELECT id FROM things WHERE \"we=ird&,\"\"q'\" = 'x=y&z'"))
        #expect(try harness.pageIDs([("ünï__in", "Ö1")]).count == 150)
        let resolved = try DatabaseTableQuery.resolve([(name: "a__gt__exact", value: "v2"), (name: "a__gt", value: "3")], schema: harness.schema)
        #expect(resolved == ["a__gt__exact": "v2", "a__gt": "3"])
    }

    /// Whatever a query says, its variant parameters read back as themselves, and equal meanings
    /// get equal parameters.
    @Test func variantParametersAreOneSpellingPerMeaningAndReadBackAsThemselves() async throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        let schema = harness.schema
        func resolve(_ query: [(String, String)]) throws -> [String: String] {
            try DatabaseTableQuery.resolve(query.map { (name: $0.0, value: $0.1) }, schema: schema)
        }
        #expect(try resolve([("t", "x")]) == resolve([("t__exact", "x")]))
        #expect(try resolve([("t", "x")]) == ["t": "x"])
        #expect(try resolve([("a__gt__exact", "x")]) == ["a__gt__exact": "x"], "the bare name would mean a > x")
        #expect(try resolve([("_sort_desc", "n")]) == resolve([("sort", "-n")]))
        #expect(try resolve([("_sort", "n")]) == resolve([("sort", "n")]))
        #expect(try resolve([("_sort", "id")]) == [:], "ascending by the INTEGER PRIMARY KEY is the default order")
        #expect(try resolve([("n__in", " 1, 2")]) == resolve([("n__in", "[\"1\",2]")]))
        #expect(try resolve([("n__isnull", "")]) == resolve([("n__isnull", "yes")]))
        #expect(try resolve([("_facet", "n"), ("_facet", "a__gt"), ("_facet", "n")]) == ["_facets": "n,a__gt"])
        let fields = zip(
            Gen.element(of: FilterFixture.columns + ["id", "sort", "_sort", "_sort_desc", "group", "_facet", "_search", "N", "a__gt__gt"]).map { $0 ?? "" },
            Gen.element(of: ["", "__exact", "__not", "__gt", "__in", "__notin", "__isnull", "__contains"]).map { $0 ?? "" },
            Gen.element(of: Self.values + FilterFixture.columns + ["-n", "-a__gt"]).map { $0 ?? "" }
        ).array(of: 0...5)
        await propertyCheckFailingOnThrow(input: fields) { fields in
            let query = fields.map { (name: $0.0 + ($0.0.hasPrefix("_") || $0.0 == "sort" || $0.0 == "group" ? "" : $0.1), value: $0.2) }
            guard let parameters = try? DatabaseTableQuery.resolve(query, schema: schema) else { return }
            let again = try DatabaseTableQuery.resolve(parameters.map { (name: $0.key, value: $0.value) }, schema: schema)
            #expect(again == parameters, "\(query)")
            #expect(DatabaseTableQuery(variant: again, schema: schema) == DatabaseTableQuery(variant: parameters, schema: schema))
        }
    }

    @Test func repeatedFacetsAreKeptInOrderOnceEach() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        let schema = harness.schema
        let weird = "we=ird&,\"q'"
        let parameters = try DatabaseTableQuery.resolve([(name: "_facet", value: "n"), (name: "_facet", value: weird), (name: "_facet", value: "N")], schema: schema)
        #expect(parameters.keys.sorted() == ["_facets"])
        #expect(DatabaseTableQuery(variant: parameters, schema: schema).facets == ["n", weird])
        #expect(DatabaseTableQuery(variant: try DatabaseTableQuery.resolve([(name: "_facet", value: "t")], schema: schema), schema: schema).facets == ["t"])
    }

    // MARK: Refusals

    @Test("Repeated filters on one column all hold, as Datasette ANDs them; the variant keeps every one and reads back as itself")
    func repeatedFiltersAllHold() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        for (query, sql) in [
            ([("n__not", "1"), ("n__not", "2")], "n <> 1 AND n <> 2"),
            ([("n", "1"), ("n__exact", "2")], "n = 1 AND n = 2"),
            ([("n__gt", "0"), ("n__gt", "2"), ("n__lt", "5"), ("n__gt", "0")], "n > 0 AND n > 2 AND n < 5"),
        ] {
            #expect(try harness.pageIDs(query) == harness.sqliteIDs("SELECT id FROM things WHERE \(sql)"), "\(query)")
            let parameters = try DatabaseTableQuery.resolve(query.map { (name: $0.0, value: $0.1) }, schema: harness.schema)
            let again = try DatabaseTableQuery.resolve(parameters.map { (name: $0.key, value: $0.value) }, schema: harness.schema)
            #expect(again == parameters, "the variant's own parameters read back as the same variant")
        }
        // The same filters in another order or spelling are one variant.
        let one = try DatabaseTableQuery.resolve([(name: "n__not", value: "1"), (name: "n__not", value: "2")], schema: harness.schema)
        let other = try DatabaseTableQuery.resolve([(name: "n__not", value: "2"), (name: "n__not", value: "1")], schema: harness.schema)
        #expect(one == other)
    }

    @Test(arguments: [
        ("nope=1", "\u{201C}nope\u{201D} is not a column"),
        ("nope__gt=1", "\u{201C}nope\u{201D} is not a column"),
        ("n__resembles=1", "\u{201C}resembles\u{201D} in \u{201C}n__resembles\u{201D} is not a filter operator"),
        ("_sort=n&_sort_desc=n", "sort parameters disagree"),
        ("sort=n&_sort=t", "sort parameters disagree"),
        ("_sort=nope", "\u{201C}nope\u{201D} is not a column"),
        ("_facet=nope", "cannot be used for a facet"),
        ("group=nope", "cannot be used for grouping"),
        ("n__in=[1,", "is not a JSON array"),
        ("_searchmode=fuzzy&_search=a", "_searchmode must be raw"),
        ("_where=1=1", "_where is not supported"),
        ("_search_t=apple", "_search_t is not supported"),
    ])
    func badQueriesAreRefusedNamingWhatIsWrong(query: String, message: String) throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        let items = query.split(separator: "&").map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: String(pieces[0]), value: pieces.count > 1 ? String(pieces[1]) : "")
        }
        #expect {
            try DatabaseTableQuery.resolve(items, schema: harness.schema)
        } throws: { error in
            (error as? PageDefinition.VariantError)?.message.contains(message) == true
        }
    }

    @Test func listsLongerThanTheBoundAndSearchesWithoutAnIndexAreRefused() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        let list = (1...DatabaseFilter.maxListCount).map(String.init).joined(separator: ",")
        #expect(throws: Never.self) { try DatabaseTableQuery.resolve([(name: "n__in", value: list)], schema: harness.schema) }
        #expect(throws: PageDefinition.VariantError.self) { try DatabaseTableQuery.resolve([(name: "n__notin", value: list + ",0")], schema: harness.schema) }
        let plain = try #require(try harness.store.read { try DatabaseTableSchema.all(in: $0) }.first { $0.name == "plain" })
        #expect(plain.fullTextTable == nil)
        #expect(throws: PageDefinition.VariantError.self) { try DatabaseTableQuery.resolve([(name: "_search", value: "apple")], schema: plain) }
        #expect(try DatabaseTableQuery.resolve([(name: "_search", value: "  ")], schema: plain) == [:], "an empty search box searches nothing")
    }

    // MARK: Search

    @Test func searchFindsExactlyTheFullTextMatches() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        #expect(harness.schema.fullTextTable == "things_fts")
        #expect(harness.schema.fullTextRowID == "id")
        for word in FilterFixture.words + ["apple banana", "\"apple pie\"", "nothing-here", "AND OR", "a*"] {
            let phrase = DatabaseFullTextIndex.escapedQuery(word)
            let expected = try harness.store.read { try Int64.fetchAll($0, sql: "SELECT rowid FROM things_fts WHERE things_fts MATCH ?", arguments: [phrase]) }
            #expect(try harness.pageIDs([("_search", word)]) == Set(expected), "\(word)")
        }
        let raw = try harness.sqliteIDs("SELECT rowid FROM things_fts WHERE things_fts MATCH 'apple OR cherry'")
        #expect(try harness.pageIDs([("_search", "apple OR cherry"), ("_searchmode", "raw")]) == raw)
        #expect(try harness.pageIDs([("_search", "apple"), ("n__gt", "2")]) == harness.sqliteIDs("SELECT rowid FROM things_fts WHERE things_fts MATCH 'apple'").intersection(harness.sqliteIDs("SELECT id FROM things WHERE n > 2")))
    }

    @Test func escapedSearchesAreValidWhateverTheyHold() async throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        await propertyCheckFailingOnThrow(input: Gen.element(of: ["\"", "AND", "*", ":", "(", " ", "apple", "t:", "NEAR", "^", "-", "\n", "ü"]).map { $0 ?? "" }.array(of: 1...8)) { pieces in
            let search = pieces.joined()
            #expect(throws: Never.self, "\(search)") { try harness.pageIDs([("_search", search)]) }
        }
    }

    @Test func aMalformedRawSearchIsTheClientsMistake() throws {
        let harness = try Harness()
        defer { harness.database.remove() }
        #expect {
            try harness.pageIDs([("_search", "apple AND"), ("_searchmode", "raw")])
        } throws: { error in
            guard let error = error as? DatabaseSearchError else { return false }
            return error.httpError.status == 400 && error.httpError.message.contains("apple AND")
        }
    }

    @Test func fullTextTablesAreFoundByTheirContentOptionOrName() throws {
        let database = try TestDatabase { db in
            try db.execute(sql: """
                CREATE TABLE docs (id INTEGER PRIMARY KEY, body TEXT);
                CREATE VIRTUAL TABLE [search "docs"] USING fts5(body, content = 'docs');
                CREATE TABLE notes (body TEXT);
                CREATE VIRTUAL TABLE notes_fts USING fts5(body);
                CREATE TABLE "odd,name" (body TEXT);
                CREATE VIRTUAL TABLE x USING FTS4(body, content="odd,name");
                CREATE TABLE lonely (body TEXT);
                CREATE VIRTUAL TABLE other USING fts5(body, content='elsewhere');
                """)
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: false)
        let schemas = try store.read { try DatabaseTableSchema.all(in: $0) }
        let indexes = Dictionary(schemas.map { ($0.name, $0.fullTextTable ?? "-") }, uniquingKeysWith: { a, _ in a })
        #expect(indexes["docs"] == "search \"docs\"")
        #expect(indexes["notes"] == "notes_fts")
        #expect(indexes["odd,name"] == "x")
        #expect(indexes["lonely"] == "-")
        #expect(indexes["notes_fts"] == "notes_fts", "an FTS table searches itself")
    }
}
