import Testing
import TableKit

@Suite("Page rendering")
struct PageRenderingTests {
    static let context = RenderContext(basePath: "/pages/groceries", variantQuery: "layout=sections")

    @Test("A page with headers, footers and edit affordances renders its golden HTML")
    func goldenHTML() {
        let (table, _) = goldenPage()
        let expected = #"<main id="table" class="tk-table" data-version="0"><h1 class="tk-title">Groceries</h1>"#
            + #"<section id="section-open" class="tk-section" data-section="open" aria-labelledby="section-open-header">"#
            + #"<header class="tk-header" data-height="28"><h2 id="section-open-header">Open</h2></header><div class="tk-rows" role="table" aria-labelledby="section-open-header">"#
            + #"<div id="row-milk" class="tk-row" data-row="milk" data-kind="value" data-height="44" role="row">"#
            + #"<div class="tk-select-cell" role="cell"><form class="tk-select" method="post" action="/pages/groceries/rows/milk/select?layout=sections"><button type="submit" class="tk-cell"><span class="tk-title">Milk</span><span class="tk-detail">2 l</span></button></form></div>"#
            + #"<div class="tk-edit" role="cell"><form class="tk-delete" method="post" action="/pages/groceries/rows/milk?layout=sections"><input type="hidden" name="_method" value="DELETE"><button type="submit">Delete</button></form>"#
            + #"<form class="tk-action" method="post" action="/pages/groceries/rows/milk/actions/archive?layout=sections"><button type="submit">Archive</button></form>"#
            + #"<form class="tk-action" method="post" action="/pages/groceries/rows/milk/actions/burn?layout=sections"><button type="submit" class="tk-destructive">Burn</button></form>"#
            + #"<form class="tk-move tk-move-down" method="post" action="/pages/groceries/rows/milk/move?layout=sections"><input type="hidden" name="section" value="open"><input type="hidden" name="after" value="eggs"><button type="submit" aria-label="Move down">↓</button></form></div></div>"#
            + #"<div id="row-eggs" class="tk-row" data-row="eggs" data-kind="basic" data-indent="1" role="row"><div class="tk-select-cell" role="cell"><form class="tk-select" method="post" action="/pages/groceries/rows/eggs/select?layout=sections"><button type="submit" class="tk-cell"><span class="tk-title">Eggs</span></button></form></div></div>"#
            + #"</div><footer class="tk-footer"><p>2 items</p></footer></section>"#
            + #"<section id="section-done" class="tk-section" data-section="done"><header class="tk-header"><div class="tk-cell" data-kind="basic"><span class="tk-title">Done</span></div></header><div class="tk-rows" role="table">"#
            + #"<div id="row-bread" class="tk-row" data-row="bread" data-kind="subtitle" role="row"><div class="tk-select-cell" role="cell"><form class="tk-select" method="post" action="/pages/groceries/rows/bread/select?layout=sections"><button type="submit" class="tk-cell"><span class="tk-text"><span class="tk-title">Bread</span><span class="tk-subtitle">rye</span></span></button></form></div></div>"#
            + #"</div></section></main>"#
        #expect(TableRenderer(table: table, context: Self.context).page(.html) == expected)
    }

    @Test("The same page renders its golden JSON")
    func goldenJSON() {
        let (table, _) = goldenPage()
        let expected = #"{"title":"Groceries","version":0,"sections":["#
            + #"{"id":"open","header":"Open","footer":"2 items","headerHeight":28,"rowCount":2,"rows":["#
            + #"{"id":"milk","kind":"value","height":44,"title":"Milk","detail":"2 l","editingStyle":"delete","movable":true,"actions":[{"name":"archive","title":"Archive","style":"normal"},{"name":"burn","title":"Burn","style":"destructive"}]},"#
            + #"{"id":"eggs","kind":"basic","height":null,"indentationLevel":1,"title":"Eggs"}],"next":null},"#
            + #"{"id":"done","header":null,"footer":null,"headerView":{"kind":"basic","title":"Done"},"rowCount":1,"rows":["#
            + #"{"id":"bread","kind":"subtitle","height":null,"title":"Bread","subtitle":"rye"}],"next":null}],"next":null}"#
        #expect(TableRenderer(table: table, context: Self.context).page(.json) == expected)
    }

    @Test("A table's header view renders above its sections, and its own JSON members join the document's, nested and in order")
    func tableHeaderViewAndProperties() {
        let root = HeadedList()
        let table = TableAdapter(root: root)
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/headed"))
        let html = renderer.page(.html)
        #expect(html.hasPrefix(#"<main id="table" class="tk-table" data-version="0"><header id="table-header" class="tk-table-header"><div class="tk-cell" data-kind="basic"><span class="tk-title">3 &lt;rows&gt;</span></div></header><section"#))
        let json = renderer.page(.json)
        #expect(json.hasPrefix(#"{"title":null,"version":0,"headerView":{"kind":"basic","title":"3 \u003crows\u003e"},"facets":{"a\"b":[{"value":null,"count":2},{"value":1.5,"count":1}]},"empty":[],"sections":["#))
        // A member named like one of the document's own would make it ambiguous: left out.
        #expect(!json.contains(#""sections":"shadow""#))
    }

    @Test("A cell's typed values follow its display text in JSON, not in HTML; the row's own member names stay the row's")
    func typedValues() {
        let values = [
            JSONProperty(name: "done", value: .bool(true)), JSONProperty(name: "progress", value: .number(0.57)),
            JSONProperty(name: "title", value: .string("shadow")),
        ]
        let list = ListDataSource(models: [Item(id: 1)], sectionID: "all") { _, _ in
            TableCell(.subtitle, CellContent(title: "Milk", subtitle: "done", accessory: .checkmark, jsonProperties: values))
        }
        let renderer = TableRenderer(table: TableAdapter(root: list), context: RenderContext(basePath: "/pages/items"))
        let json = renderer.page(.json)
        #expect(json.contains(#""title":"Milk","subtitle":"done","accessory":"checkmark","done":true,"progress":0.57}"#))
        #expect(!json.contains("shadow"))
        #expect(!renderer.page(.html).contains("0.57"))
    }

    @Test("A row limit pages sections with a next URL, and a section renders from after a row")
    func paging() throws {
        let list = ListDataSource(models: (1...5).map(Item.init), sectionID: "all") { item, _ in
            TableCell(.basic, CellContent(title: "Item \(item.id)"))
        }
        let table = TableAdapter(root: list)
        var context = RenderContext(basePath: "/pages/items", variantQuery: "layout=list", rowLimit: 2)
        let renderer = TableRenderer(table: table, context: context)
        let json = renderer.page(.json)
        #expect(json.contains(#""rows":[{"id":"1","#))
        #expect(!json.contains(#""id":"3""#))
        // The section's next leads to JSON, and the top level repeats it: rows follow.
        #expect(json.hasSuffix(#""next":"/pages/items/sections/all.json?after=2\u0026limit=2\u0026layout=list"}],"next":"/pages/items/sections/all.json?after=2\u0026limit=2\u0026layout=list"}"#))
        #expect(renderer.page(.html).contains(#"<a class="tk-next" rel="next" href="/pages/items/sections/all?after=2&amp;limit=2&amp;layout=list" data-remaining="3">More rows</a>"#))

        var out = OutputBuffer()
        try renderer.renderSection("all", after: "4", limit: 2, as: .json, into: &out)
        #expect(out.string.contains(#""rows":[{"id":"5","#))
        #expect(out.string.hasSuffix(#""next":null}"#))
        #expect(throws: TableError.unknownRow("99")) {
            try renderer.renderSection("all", after: "99", as: .json, into: &out)
        }
        context.rowLimit = nil
        #expect(TableRenderer(table: table, context: context).page(.json).contains(#""id":"5""#))
    }

    @Test("Identifiers are percent-encoded in URLs and escaped in attributes")
    func identifiersInURLs() throws {
        let table = singleCellTable(TableCell(.basic, CellContent(title: "x")), id: "a b/\"c\"")
        let html = try TableRenderer(table: table, context: RenderContext(basePath: "/pages/p")).row("a b/\"c\"", .html)
        #expect(html.contains(#"action="/pages/p/rows/a%20b%2F%22c%22/select""#))
        #expect(html.contains(#"data-row="a b/&quot;c&quot;""#))
    }

    @Test("A section index becomes a navigation of links to sections")
    func sectionIndex() {
        let table = TableAdapter(root: GoldenSectionIndexRoot(childDelegates: [
            GoldenSection(id: "a", header: "A", footer: nil, rows: []),
            GoldenSection(id: "b", header: "B", footer: nil, rows: []),
        ]))
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/p"))
        #expect(renderer.page(.html).contains(##"<nav class="tk-index" aria-label="Section index"><a href="#section-a">A</a><a href="#section-b">B</a></nav>"##))
        #expect(renderer.page(.json).contains(#""sectionIndex":[{"title":"A","section":"a"},{"title":"B","section":"b"}]"#))
    }
}

@Suite("Row actions with a text field")
struct RowActionFieldTests {
    @Test("An action's text field renders as a required input with its escaped value, and in JSON")
    func actionField() throws {
        let row = GoldenRow("t1", .basic, CellContent(title: "Milk"))
        row.actions = [RowAction(name: "rename", title: "Rename", field: .init(name: "title", placeholder: "New title", value: "\"><script>x</script>"))]
        let table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [GoldenSection(id: "s", header: nil, footer: nil, rows: [row])]))
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/p"))
        let html = try renderer.row("t1", .html)
        #expect(html.contains(#"<form class="tk-action" method="post" action="/pages/p/rows/t1/actions/rename"><input type="text" required name="title" placeholder="New title" aria-label="New title" value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"><button type="submit">Rename</button></form>"#))
        let json = try renderer.row("t1", .json)
        #expect(json.contains(#""actions":[{"name":"rename","title":"Rename","style":"normal","field":{"name":"title","placeholder":"New title","value":"\"\u003e\u003cscript\u003ex\u003c/script\u003e"}}]"#))
    }
}

/// A list with a header view and JSON members of its own.
private final class HeadedList: CascadingBareTableDelegate {
    override func numberOfSections() -> Int { 1 }
    override func numberOfRows(inSection section: Int) -> Int { 0 }
    override func sectionID(forSection section: Int) -> SectionID { "all" }
    override func headerViewForTable() -> TableCell? { TableCell(.basic, CellContent(title: "3 <rows>")) }
    override func jsonPropertiesForTable() -> [JSONProperty] {
        [
            JSONProperty(name: "facets", value: .object([JSONProperty(name: "a\"b", value: .array([
                .object([JSONProperty(name: "value", value: .null), JSONProperty(name: "count", value: .integer(2))]),
                .object([JSONProperty(name: "value", value: .number(1.5)), JSONProperty(name: "count", value: .integer(1))]),
            ]))])),
            JSONProperty(name: "empty", value: .array([])),
            JSONProperty(name: "sections", value: .string("shadow")),
        ]
    }
}
