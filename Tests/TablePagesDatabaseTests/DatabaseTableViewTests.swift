import Foundation
import GRDB
@testable import TablePagesTestSupport
import TableStore
import HostileTextSupport
import HTTPTestSupport
import MicroHTTP
import PropertyBased
import TableKit
import Testing
@testable import TablePages
@testable import TablePagesDatabase

@Suite("A database page as a table view: its header, its grid rows, its row page", .shrinking(false))
struct DatabaseTableViewTests {
    /// A schema of `columns` named `t`, keyed by the rowid.
    static func schema(_ columns: [String], fullText: Bool = false) -> DatabaseTableSchema {
        var schema = DatabaseTableSchema(name: "t", columns: columns, key: ["rowid"], keyIsRowID: true, defaultSort: nil)
        schema.fullTextTable = fullText ? "t_fts" : nil
        return schema
    }

    /// The header's HTML, as its kind writes it.
    static func html(_ header: DatabaseTableHeader) -> String {
        var out = OutputBuffer()
        DatabaseTableHeader.kind.render(header.cell.content, &out)
        return out.string
    }

    /// Every `name="value"` attribute in `html`, values as written (still escaped). Scans bytes:
    /// a property check runs it over megabytes of hostile text.
    static func attributes(_ html: String, named name: String) -> [String] {
        let bytes = Array(html.utf8)
        let opening = Array(" \(name)=\"".utf8)
        var values: [String] = []
        var start = 0
        while let found = bytes[start...].firstRange(of: opening),
              let end = bytes[found.upperBound...].firstIndex(of: UInt8(ascii: "\"")) {
            values.append(String(decoding: bytes[found.upperBound..<end], as: UTF8.self))
            start = end
        }
        return values
    }

    /// The names of the tags in `html`, in order, closing ones with their `/`.
    static func tags(_ html: String) -> [String] {
        let bytes = Array(html.utf8)
        var tags: [String] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: "<") {
            let name = bytes[(index + 1)...].prefix { $0 == UInt8(ascii: "/") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            tags.append(String(decoding: name, as: UTF8.self))
        }
        return tags
    }

    /// A query string (`?a=b&c=d`, HTML attribute escaping undone) as decoded name-value pairs.
    static func decodedQuery(_ href: String) -> [DatasetteQuery.Parameter] {
        let unescaped = href.replacingOccurrences(of: "&amp;", with: "&")
        guard let query = unescaped.split(separator: "?", maxSplits: 1).last, unescaped.contains("?") else { return [] }
        return query.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let name = PercentEncoding.decode(parts[0]), let value = PercentEncoding.decode(parts[1]) else { return nil }
            return DatasetteQuery.Parameter(name: name, value: value)
        }
    }

    @Test func theHeaderCountsTheRowsAndSaysWhichOnes() {
        let schema = Self.schema(["id", "category", "price"])
        #expect(DatabaseTableHeader(schema: schema, query: DatabaseTableQuery(variant: [:], schema: schema), rowCount: 1_000_000, facets: []).description == "1,000,000 rows")
        #expect(DatabaseTableHeader(schema: schema, query: DatabaseTableQuery(variant: [:], schema: schema), rowCount: 1, facets: []).description == "1 row")
        var query = DatabaseTableQuery(variant: ["category": "books"], schema: schema)
        #expect(DatabaseTableHeader(schema: schema, query: query, rowCount: 12, facets: []).description == "12 rows where category = books")
        query.filters.append(DatabaseFilter(column: "price", comparison: .gte, value: "10"))
        query.sort = "price"
        query.descending = true
        query.group = "category"
        #expect(DatabaseTableHeader(schema: schema, query: query, rowCount: 1234, facets: []).description
                == "1,234 rows where category = books and price \u{2265} 10 sorted by price descending, grouped by category")
    }

    @Test func aColumnHeaderSortsAscendingThenDescendingAndKeepsTheOtherParameters() {
        let schema = Self.schema(["id", "name", "score"])
        var query = DatabaseTableQuery(variant: ["group": "name", "score": "3"], schema: schema)
        query.facets = ["name"]
        let unsorted = Self.html(DatabaseTableHeader(schema: schema, query: query, rowCount: 5, facets: []))
        #expect(unsorted.contains(#"<span class="tk-db-column" role="columnheader" data-field="name"><a href="?_sort=name&amp;score__exact=3&amp;_facet=name&amp;group=name" title="Sort ascending">name</a><details class="tk-db-menu">"#))
        #expect(!unsorted.contains("aria-sort"))

        query.sort = "name"
        let ascending = Self.html(DatabaseTableHeader(schema: schema, query: query, rowCount: 5, facets: []))
        #expect(ascending.contains(#"data-field="name" aria-sort="ascending"><a href="?_sort_desc=name&amp;score__exact=3&amp;_facet=name&amp;group=name" title="Sort descending">"#), "a second click sorts descending")
        #expect(ascending.contains(#"data-field="id"><a href="?_sort=id&amp;score__exact=3"#), "another column sorts by itself ascending")

        query.descending = true
        let descending = Self.html(DatabaseTableHeader(schema: schema, query: query, rowCount: 5, facets: []))
        #expect(descending.contains(#"data-field="name" aria-sort="descending"><a href="?_sort=name&amp;"#), "and a third ascending again")
        #expect(descending.components(separatedBy: "aria-sort=").count == 2, "only the sorted column is marked")
    }

    @Test func theFormsKeepThePageParametersAndEachFilterHasALinkThatRemovesIt() throws {
        let schema = Self.schema(["id", "name", "score"], fullText: true)
        var query = DatabaseTableQuery(variant: ["score": "3"], schema: schema)
        query.filters.append(DatabaseFilter(column: "name", comparison: .isnull, value: "1"))
        query.search = "dog & cat"
        query.sort = "id"
        let html = Self.html(DatabaseTableHeader(schema: schema, query: query, rowCount: 2, facets: []))
        let filterForm = try #require(ReferenceEscaping.enclosed(in: Array(html.utf8), between: #"<form class="tk-db-filter" method="get""#, and: "</form>"))
        let filterFormText = String(decoding: filterForm, as: UTF8.self)
        for hidden in [#"name="_sort" value="id""#, #"name="score__exact" value="3""#, #"name="name__isnull" value="1""#, #"name="_search" value="dog &amp; cat""#] {
            #expect(filterFormText.contains("<input type=\"hidden\" " + hidden + ">"), "\(hidden)")
        }
        for field in ["_filter_column", "_filter_op", "_filter_value"] {
            #expect(filterFormText.contains("name=\"\(field)\""))
        }
        #expect(filterFormText.components(separatedBy: "<option").count - 1 == 3 + DatabaseFilter.Operator.allCases.count)
        let searchForm = String(decoding: ReferenceEscaping.enclosed(in: Array(html.utf8), between: #"<form class="tk-db-search""#, and: "</form>") ?? [], as: UTF8.self)
        #expect(searchForm.contains(#"name="_search" aria-label="Search the rows" placeholder="Search" value="dog &amp; cat">"#))
        #expect(!searchForm.contains(#"type="hidden" name="_search""#), "the search box is the search")
        #expect(html.contains(#"<li><span>score = 3</span> <a class="tk-db-remove" href="?_sort=id&amp;name__isnull=1&amp;_search=dog%20%26%20cat""#))
        #expect(html.contains(#"<li><span>name is null</span> <a class="tk-db-remove" href="?_sort=id&amp;score__exact=3&amp;_search=dog%20%26%20cat""#))
        #expect(html.contains(#"<a href="/pages/t.csv?_sort=id&amp;score__exact=3&amp;name__isnull=1&amp;_search=dog%20%26%20cat">CSV</a>"#))
        #expect(html.contains(#"<a href="/pages/t.ndjson?_sort=id&amp;"#))
        let plain = Self.html(DatabaseTableHeader(schema: Self.schema(["a"]), query: DatabaseTableQuery(variant: [:], schema: Self.schema(["a"])), rowCount: 0, facets: []))
        #expect(!plain.contains("tk-db-search"), "no search box without an FTS5 index")
        #expect(!plain.contains("tk-db-filters") && !plain.contains("tk-db-facets"))
        #expect(plain.contains(#"<a href="/pages/t.csv">CSV</a>"#))
    }

    @Test func facetValuesAddTheirFilterOrRemoveItWhenChosen() {
        let schema = Self.schema(["id", "category"])
        let query = DatabaseTableQuery(variant: ["category": "b"], schema: schema)
        let facet = DatabaseFacet(column: "category", values: [
            .init(value: SQLValue.text("a"), count: 1200), .init(value: SQLValue.text("b"), count: 7), .init(value: .null, count: 3),
            .init(value: SQLValue.real(2.5), count: 2), .init(value: SQLValue.blob(Data([1, 2])), count: 1),
        ], isTruncated: true)
        var withFacet = query
        withFacet.facets = ["category"]
        let header = DatabaseTableHeader(schema: schema, query: withFacet, rowCount: 7, facets: [facet])
        let html = Self.html(header)
        #expect(html.contains(#"<li><a href="?category__exact=b&amp;category__exact=a&amp;_facet=category">a</a> <span class="tk-db-facet-count">1,200</span></li>"#))
        #expect(html.contains(#"<li class="tk-db-selected"><a href="?_facet=category" aria-current="true" title="Remove this filter">b</a>"#))
        #expect(html.contains(#"<a href="?category__exact=b&amp;category__isnull=1&amp;_facet=category">NULL</a>"#), "NULL is isnull")
        #expect(html.contains(#"<a href="?category__exact=b&amp;category__exact=2.5&amp;_facet=category">2.5</a>"#))
        #expect(html.contains(#"<li><span>2 bytes</span>"#), "a blob value has no link")
        #expect(html.contains(#"<li class="tk-db-more">"#), "a truncated facet says so")
        #expect(html.contains(#"<h2>category <a class="tk-db-remove" href="?category__exact=b" aria-label="Remove the facet category">"#))
    }

    @Test("Any column names and values are escaped in every attribute, link and text of the header")
    func hostileNamesAndValues() async {
        // At most 2 KB each: every link repeats every value, and long texts' escaping is the
        // escapers' own tests' concern; these check the header's structure.
        let short = HostileText.text.map { String(decoding: $0.utf8.prefix(2048), as: UTF8.self) }
        await propertyCheckFailingOnThrow(input: short.array(of: 3), short.array(of: 3)) { names, values in
            // Distinct column names, as a table's are; SQLite's names hold no NUL.
            let columns = names.indices.map { "\($0)" + String(String.UnicodeScalarView(names[$0].unicodeScalars.filter { $0 != "\u{0}" })) }
            let benignColumns = columns.indices.map { "c\($0)" }
            func header(_ columns: [String], _ values: [String]) -> DatabaseTableHeader {
                let schema = Self.schema(columns, fullText: true)
                var query = DatabaseTableQuery(variant: [:], schema: schema)
                query.sort = columns[1]
                query.filters = [DatabaseFilter(column: columns[0], comparison: .contains, value: values[0]), DatabaseFilter(column: columns[2], comparison: .exact, value: values[1])]
                query.search = values[2]
                query.facets = [columns[2]]
                query.dateFacets = [columns[1]]
                query.arrayFacets = [columns[0]]
                query.group = columns[0]
                // A column facet whose values carry a referenced row's label, as hostile as a value.
                let facet = DatabaseFacet(column: columns[2], values: values.map { .init(value: SQLValue.text($0), count: 1, label: .some($0)) }, isTruncated: false)
                let dates = DatabaseFacet(column: columns[1], kind: .date, values: values.map { .init(value: SQLValue.text($0), count: 2) }, isTruncated: true)
                let items = DatabaseFacet(column: columns[0], kind: .array, values: values.map { .init(value: SQLValue.text($0), count: 3) }, isTruncated: false)
                // The operator's description of the table, as hostile as a value.
                return DatabaseTableHeader(schema: schema, query: query, rowCount: 3, facets: [facet, dates, items],
                                           suggestedFacets: [.init(column: columns[2], kind: .date), .init(column: columns[1], kind: .array)], tableDescription: values[1])
            }
            let hostile = Self.html(header(columns, values))
            let benign = Self.html(header(benignColumns, ["v0", "v1", "v2"]))
            // Escaping that failed would add or end elements: the markup must be the benign one's.
            #expect(Self.tags(hostile) == Self.tags(benign))
            #expect(Self.attributes(hostile, named: "href").count == Self.attributes(benign, named: "href").count)
            for href in Self.attributes(hostile, named: "href") {
                let unescaped = href.replacingOccurrences(of: "&amp;", with: "&")
                let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%&=?/".utf8)
                #expect(unescaped.utf8.allSatisfy(allowed.contains), "only percent-encoded names and values")
                #expect(!unescaped.contains("&") || href.contains("&amp;"), "every & of a link is escaped")
            }
            // The column links decode to each column, sorted, with the other parameters kept.
            // Each column header's first link; its menu's links follow it.
            let columnLinks = hostile.components(separatedBy: #"role="columnheader""#).dropFirst().compactMap { Self.attributes($0, named: "href").first }
            #expect(columnLinks.count == columns.count)
            for (column, href) in zip(columns, columnLinks) {
                let parameters = Self.decodedQuery(href)
                let sort = column == columns[1] ? DatasetteQuery.sortDescending : DatasetteQuery.sort
                #expect(parameters.first == DatasetteQuery.Parameter(name: sort, value: column))
                #expect(parameters.contains(DatasetteQuery.Parameter(name: columns[0] + "__contains", value: values[0])))
                #expect(parameters.contains(DatasetteQuery.Parameter(name: DatasetteQuery.search, value: values[2])))
                #expect(parameters.last == DatasetteQuery.Parameter(name: "group", value: columns[0]))
            }
            for column in columns {
                #expect(ReferenceEscaping.contains(Array(hostile.utf8), Array("data-field=\"".utf8) + ReferenceEscaping.html(column) + Array("\"".utf8)))
            }
            // A date or array facet's values add Datasette's filter of their column, with the page kept.
            let hrefs = Self.attributes(hostile, named: "href").map(Self.decodedQuery)
            for value in values {
                #expect(hrefs.contains { $0.last == DatasetteQuery.Parameter(name: columns[1] + "__date", value: value) && $0.contains(DatasetteQuery.Parameter(name: "_facet_date", value: columns[1])) })
                #expect(hrefs.contains { $0.last == DatasetteQuery.Parameter(name: columns[0] + "__arraycontains", value: value) })
            }
            #expect(hrefs.contains { $0.contains(DatasetteQuery.Parameter(name: "_facet_date", value: columns[2])) }, "the suggested date facet adds itself")
            for value in values {
                #expect(ReferenceEscaping.contains(Array(hostile.utf8), Array(" value=\"".utf8) + ReferenceEscaping.html(value) + Array("\"".utf8)) || value.isEmpty)
            }
            let description = Array(#"<div class="tk-db-header"><p class="tk-db-description">"#.utf8) + ReferenceEscaping.html(values[1]) + Array("</p>".utf8)
            #expect(ReferenceEscaping.contains(Array(hostile.utf8), description), "the description first, escaped")
        }
    }

    @Test func theFilterFormsFieldsReadAsTheFilterTheyDescribe() throws {
        #expect(try DatabaseFilterForm.expanded(["_filter_column": "price", "_filter_op": "gte", "_filter_value": "10", "_sort": "name"]) == ["price__gte": "10", "_sort": "name"])
        #expect(try DatabaseFilterForm.expanded(["_filter_column": "note", "_filter_op": "isnull", "_filter_value": ""]) == ["note__isnull": "1"])
        #expect(try DatabaseFilterForm.expanded(["_filter_column": "note", "_filter_op": "isblank", "_filter_value": ""]) == ["note__isblank": "1"])
        #expect(try DatabaseFilterForm.expanded(["_filter_column": "note", "_filter_op": "contains", "_filter_value": ""]) == [:], "no value, no filter")
        #expect(try DatabaseFilterForm.expanded(["category": "a"]) == ["category": "a"])
        #expect(throws: PageDefinition.VariantError.self) { try DatabaseFilterForm.expanded(["_filter_column": "a", "_filter_op": "resembles", "_filter_value": "x"]) }
    }

    // Needs the filters of `col__op=value` (helper "query"'s DatabaseTableQuery.resolve).
    @Test func theFilterFormNarrowsThePageWithoutJavaScript() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        let expected = try DatabaseTablePagesTests.expectedIDs(database, "SELECT id FROM items WHERE category = 'c3' ORDER BY id")
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try jsonObject(try await connection.request("GET", "/pages/items.json?limit=1000&_filter_column=category&_filter_op=exact&_filter_value=c3"))
            let rows = try #require(jsonSections(page).first?["rows"] as? [[String: Any]])
            #expect(rows.compactMap { $0["id"] as? String } == expected)
            let header = try #require(page["headerView"] as? [String: Any])
            #expect(header["kind"] as? String == DatabaseTableHeader.reuseIdentifier)
            #expect(header["title"] as? String == "\(expected.count) rows where category = c3")
            let fields = try #require(header["fields"] as? [String: Any])
            #expect(fields["rowCount"] as? Int == expected.count)
            #expect(try await connection.request("GET", "/pages/items?_filter_column=category&_filter_op=nope&_filter_value=x").status == 400)
        }
    }

    @Test func thePageCountsItsRowsAndItsRowsKeepTheirJSON() async throws {
        let database = try TestDatabase.generated()
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let html = try await connection.request("GET", "/pages/items").text
            #expect(html.contains(#"<header id="table-header" class="tk-table-header"><div class="tk-cell" data-kind="database-header"><div class="tk-db-header"><p class="tk-db-count">2,345 rows</p>"#))
            let grouped = try await connection.request("GET", "/pages/items?group=category").text
            #expect(grouped.contains(#"<p class="tk-db-count">2,345 rows, grouped by category</p>"#), "every section's rows")
            let json = try await connection.request("GET", "/pages/items.json?limit=1").text
            #expect(json.contains(#""rows":[{"id":"1","kind":"record","height":null,"estimatedHeight":44,"fields":{"id":1,"score":1,"category":"c1","name":"item 1"},"selectable":false}]"#))
        }
    }

    @Test func theRowPageIsADetailTableWithEveryValueWholeAndALinkBack() async throws {
        let long = String(repeating: "word ", count: 200) + "<end>"
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE \"a b\" (id INTEGER PRIMARY KEY, note TEXT, n INTEGER)")
            try db.execute(sql: "INSERT INTO \"a b\" VALUES (7, ?, NULL)", arguments: [long])
        }
        defer { database.remove() }
        try await withDatabaseSite(database) { server, _, _ in
            let connection = try await TestConnection(port: server.port)
            let page = try await connection.request("GET", "/pages/a%20b?sort=-n").text
            #expect(page.contains(#"<a class="tk-field-value tk-cut" href="/pages/a+b/rows/7?sort=-n" title="Show the whole value">word word "#), "the cut value links to its row, in the page's variant")
            let row = try await connection.request("GET", "/pages/a%20b/rows/7?sort=-n")
            #expect(row.status == 200)
            #expect(row.header("Content-Security-Policy") != nil)
            let text = row.text
            #expect(text.hasPrefix("<!doctype html>") && text.contains(#"<link rel="stylesheet" href="/public/table-pages.css">"#))
            // Live: it follows the variant of row 7 from the state it shows.
            #expect(text.contains(#"<div class="tp-page" data-page="a b" data-events="/pages/a+b/events?_row=7&amp;sort=-n" data-url="/pages/a+b?_row=7&amp;sort=-n" data-document="/pages/a+b/rows/7?sort=-n" data-row="7"><main class="tk-table tk-row-page" data-version=""#))
            #expect(text.contains(#""><nav class="tp-crumbs" aria-label="Breadcrumb"><ol><li><a href="/"><bdi>TablePages</bdi></a></li><li><a href="/pages/a+b?sort=-n"><bdi>a b</bdi></a></li><li><a href="/pages/a+b/rows/7?sort=-n" aria-current="page"><bdi>7</bdi></a></li></ol></nav>"#), "breadcrumbs: the site, the table in the page's variant, the row")
            #expect(text.contains(#"<h1 class="tk-title"><bdi>a b</bdi>: <bdi>7</bdi></h1>"#))
            #expect(text.contains(#"<p class="tk-row-formats">This row as <a href="/pages/a+b/rows/7.json?sort=-n" type="application/json">JSON</a></p>"#), "a link to the row's JSON, in the page's variant")
            let linked = try await connection.request("GET", "/pages/a+b/rows/7.json?sort=-n")
            #expect(linked.status == 200 && linked.text.hasPrefix(#"{"id":"7","kind":"record""#), "the JSON link answers the row's JSON")
            let expectedNote = #"<span class="tk-field" role="cell" data-field="note"><span class="tk-field-name">note</span> <span class="tk-field-value">"# + String(repeating: "word ", count: 200) + "&lt;end&gt;</span></span>"
            #expect(text.contains(expectedNote), "one line per column, the value whole")
            #expect(text.contains(#"<span class="tk-field-name">n</span> <span class="tk-field-value tk-null">NULL</span>"#))
            #expect(!text.contains("tk-cut"))
            let json = try await connection.request("GET", "/pages/a%20b/rows/7.json").text
            #expect(json.hasPrefix(#"{"id":"7","kind":"record""#), "the row's JSON is the row, as before")
        }
    }
}
