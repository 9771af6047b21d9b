import Foundation
import GRDB
import HTTPTestSupport
import MicroHTTP
@testable import TablePagesTestSupport
import TableStore
@testable import TablePages
@testable import TablePagesDatabase
import Testing

@Suite("Datasette's query parameters through the server")
struct DatabaseQueryRoutesTests {
    typealias Operator = DatabaseFilter.Operator

    /// One filter per operator, on columns with NULLs, mixed types and hostile names.
    static let filters: [(column: String, comparison: Operator, values: [String])] = [
        ("a", .exact, ["2"]), ("n", .not, ["2"]), ("t", .contains, ["apple"]), ("t", .startswith, ["APPLE"]),
        ("t", .endswith, ["e"]), ("m", .gt, ["1"]), ("r", .gte, ["2.5"]), ("n", .lt, ["3"]), ("a__gt", .lte, ["v2"]),
        ("n", .in, ["1", "2", "-1"]), ("m", .notin, ["1", "w1"]), ("t", .isnull, ["1"]), ("m", .notnull, ["1"]),
        ("we=ird&,\"q'", .exact, ["x=y&z"]),
    ]

    static func count(_ database: TestDatabase, _ sql: String) throws -> Int? {
        try DatabaseQueue(path: database.path).read { try Int.fetchOne($0, sql: sql) }
    }

    static func encoded(_ pairs: [(String, String)]) -> String {
        pairs.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
    }

    /// Every operator, sorted both ways by a column with NULLs (an integer one, and one of mixed
    /// types), paged 11 rows at a time by following `next` links: every matching row once, in
    /// SQLite's order.
    @Test func keysetPagingWithEveryOperatorAndSortHasNoGapsOrRepeats() async throws {
        let harness = try DatabaseFilterTests.Harness()
        defer { harness.database.remove() }
        try await withDatabaseSite(harness.database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            for filter in Self.filters {
                let matching = try harness.expectedIDs(column: filter.column, comparison: filter.comparison, values: filter.values)
                #expect(!matching.isEmpty && matching.count < 300, "\(filter) should pick some rows")
                let isList = [Operator.in, .notin].contains(filter.comparison)
                let value = isList ? DatabaseFilterTests.Harness.listValue(filter.values) : filter.values[0]
                for (sort, descending) in [("n", false), ("n", true), ("m", false), ("m", true)] {
                    let order = try harness.store.read { try Int64.fetchAll($0, sql: "SELECT id FROM things ORDER BY \(sort)\(descending ? " DESC" : ""), id\(descending ? " DESC" : "")") }
                    let expected = order.filter(matching.contains).map(String.init)
                    let query = Self.encoded([(filter.column + "__" + filter.comparison.rawValue, value), (descending ? "_sort_desc" : "_sort", sort), ("_size", "11")])
                    let response = try await connection.request("GET", "/pages/things.json?" + query)
                    #expect(response.status == 200, "\(query): \(response.text)")
                    let section = try #require(jsonSections(try jsonObject(response)).first)
                    let ids = try await followNextLinks(connection, from: section)
                    #expect(ids == expected, "\(query)")
                }
            }
        }
    }

    /// `_size` is `limit`, `_next` is `after`; on the page's own URL `_next` answers what the
    /// `all` section's URL answers.
    @Test func sizeAndNextAreLimitAndAfter() async throws {
        let database = try FilterFixture.make()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let json = [("Accept", "application/json")]
            let limited = try await connection.request("GET", "/pages/things.json?limit=5&n__gt=0", headers: json)
            let sized = try await connection.request("GET", "/pages/things.json?_size=5&n__gt=0", headers: json)
            #expect(sized.status == 200)
            #expect(sized.text == limited.text)
            let section = try await connection.request("GET", "/pages/things/sections/all.json?after=40&limit=5&n__gt=0", headers: json)
            let nextOnSection = try await connection.request("GET", "/pages/things/sections/all.json?_next=40&_size=5&n__gt=0", headers: json)
            let nextOnPage = try await connection.request("GET", "/pages/things.json?_next=40&_size=5&n__gt=0", headers: json)
            #expect(section.status == 200)
            #expect(nextOnSection.text == section.text)
            #expect(nextOnPage.text == section.text)
            let rows = try #require(try jsonObject(nextOnPage)["rows"] as? [[String: Any]])
            #expect(rows.compactMap { $0["id"] as? String } == ["44", "45", "46", "47", "48"])

            let conflicting = try await connection.request("GET", "/pages/things.json?limit=5&_size=6", headers: json)
            #expect(conflicting.status == 400)
            #expect(conflicting.text.contains("limit and _size"))
            let tooBig = try await connection.request("GET", "/pages/things.json?_size=100000", headers: json)
            #expect(tooBig.status == 400)
            #expect(tooBig.text.contains("_size must be a whole number"))
            let grouped = try await connection.request("GET", "/pages/things.json?group=a&_next=4", headers: json)
            #expect(grouped.status == 400)
        }
    }

    @Test func clientMistakesAre400sThatSayWhatIsWrong() async throws {
        let database = try FilterFixture.make()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let json = [("Accept", "application/json")]
            for (query, message) in [
                ("nope__gt=1", "is not a column"), ("n__regex=1", "is not a filter operator"),
                ("_sort=n&_sort_desc=t", "sort parameters disagree"), ("_search=apple%20AND&_searchmode=raw", "is not a valid FTS5 query"),
                ("n__in=" + (0...100).map(String.init).joined(separator: ","), "at most 100"),
            ] {
                let response = try await connection.request("GET", "/pages/things.json?" + query, headers: json)
                #expect(response.status == 400, "\(query)")
                #expect(response.text.contains(message), "\(query): \(response.text)")
            }
            let plain = try await connection.request("GET", "/pages/plain.json?_search=apple", headers: json)
            #expect(plain.status == 400)
            #expect(plain.text.contains("has no full-text index"))
        }
    }

    /// Equal meanings are one variant: the links a page writes carry the canonical spelling, and
    /// a repeated `_facet` reaches the page.
    @Test func equalMeaningsShareOneVariantAndItsLinks() async throws {
        let database = try FilterFixture.make()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let json = [("Accept", "application/json")]
            let datasette = try await connection.request("GET", "/pages/things.json?a__exact=2&_sort_desc=n&_size=3&_facet=n&_facet=t", headers: json)
            let ours = try await connection.request("GET", "/pages/things.json?_facets=n,t&sort=-n&a=2&limit=3", headers: json)
            #expect(datasette.status == 200)
            #expect(datasette.text == ours.text)
            let next = try #require(jsonSections(try jsonObject(datasette)).first?["next"] as? String)
            #expect(next.contains("_facets=n%2Ct") && next.contains("a=2") && next.contains("sort=-n"), "\(next)")
            let search = try await connection.request("GET", "/pages/things.json?_search=apple", headers: json)
            #expect(search.status == 200)
            let matches = try Self.count(database, "SELECT count(*) FROM things_fts WHERE things_fts MATCH 'apple'")
            #expect(matches ?? 0 > 0)
            #expect((jsonSections(try jsonObject(search)).first?["rowCount"] as? Int) == matches)
        }
    }
}
