import Testing
import TableKit

/// Golden HTML and JSON for each built-in cell kind, rendered as a lone row.
@Suite("Built-in cell kinds")
struct CellKindGoldenTests {
    struct Golden: Sendable, CustomTestStringConvertible {
        let name: String
        let cell: TableCell
        let html: String
        let json: String
        var testDescription: String { name }
    }

    /// A selectable row of `kind` around the cell's inner HTML.
    static func html(_ kind: String, _ inner: String) -> String {
        #"<div id="row-r1" class="tk-row" data-row="r1" data-kind=""# + kind
            + #"" role="row"><div class="tk-select-cell" role="cell"><form class="tk-select" method="post" action="/pages/p/rows/r1/select"><button type="submit" class="tk-cell">"#
            + inner + "</button></form></div></div>"
    }

    static let goldens: [Golden] = [
        Golden(
            name: "basic",
            cell: TableCell(.basic, CellContent(title: "Milk", accessory: .disclosureIndicator)),
            html: html("basic", #"<span class="tk-title">Milk</span><span class="tk-accessory tk-disclosure" aria-hidden="true">›</span>"#),
            json: #"{"id":"r1","kind":"basic","height":null,"title":"Milk","accessory":"disclosureIndicator"}"#
        ),
        Golden(
            name: "subtitle",
            cell: TableCell(.subtitle, CellContent(title: "Rex", subtitle: "Dog", detail: "3 y", badge: "2")),
            html: html("subtitle", #"<span class="tk-text"><span class="tk-title">Rex</span><span class="tk-subtitle">Dog</span></span><span class="tk-detail">3 y</span><span class="tk-badge">2</span>"#),
            json: #"{"id":"r1","kind":"subtitle","height":null,"title":"Rex","subtitle":"Dog","detail":"3 y","badge":"2"}"#
        ),
        Golden(
            name: "value",
            cell: TableCell(.value, CellContent(title: "Price", detail: "2.50", accessory: .checkmark)),
            html: html("value", #"<span class="tk-title">Price</span><span class="tk-detail">2.50</span><span class="tk-accessory tk-checkmark" role="img" aria-label="checked">✓</span>"#),
            json: #"{"id":"r1","kind":"value","height":null,"title":"Price","detail":"2.50","accessory":"checkmark"}"#
        ),
        Golden(
            name: "image with a known size",
            cell: TableCell(.image, CellContent(title: "Rex", subtitle: "at the beach",
                                                image: CellImage(url: "/img/rex.jpg", alt: "Rex", size: .init(width: 64, height: 48)))),
            html: html("image", #"<span class="tk-figure"><img class="tk-image" src="/img/rex.jpg" alt="Rex" width="64" height="48" loading="lazy"></span><span class="tk-caption"><span class="tk-title">Rex</span><span class="tk-subtitle">at the beach</span></span>"#),
            json: #"{"id":"r1","kind":"image","height":null,"title":"Rex","subtitle":"at the beach","image":{"url":"/img/rex.jpg","alt":"Rex","width":64,"height":48}}"#
        ),
        Golden(
            name: "image without a size",
            cell: TableCell(.image, CellContent(title: "Tom", image: CellImage(url: "https://example.com/t.png"))),
            html: html("image", #"<span class="tk-figure"><img class="tk-image" src="https://example.com/t.png" alt="" loading="lazy"></span><span class="tk-caption"><span class="tk-title">Tom</span></span>"#),
            json: #"{"id":"r1","kind":"image","height":null,"title":"Tom","image":{"url":"https://example.com/t.png","alt":""}}"#
        ),
        Golden(
            name: "button",
            cell: TableCell(.button, CellContent(title: "Add item")),
            html: html("button", #"<span class="tk-button-title">Add item</span>"#),
            json: #"{"id":"r1","kind":"button","height":null,"title":"Add item"}"#
        ),
    ]

    @Test("Each built-in kind renders its golden HTML and JSON", arguments: goldens)
    func golden(_ golden: Golden) throws {
        let renderer = TableRenderer(table: singleCellTable(golden.cell), context: RenderContext(basePath: "/pages/p"))
        #expect(try renderer.row("r1", .html) == golden.html)
        #expect(try renderer.row("r1", .json) == golden.json)
    }

    @Test("A registered kind renders with its own function; an unknown identifier falls back to basic")
    func customKind() throws {
        let price = CellKind(reuseIdentifier: "price") { content, out in
            out.append("<b>")
            out.appendEscapedHTML(content.fields.first?.value ?? "")
            out.append("</b>")
        }
        let table = singleCellTable(TableCell(reuseIdentifier: "price", content: CellContent(fields: [CellField(name: "amount", value: "<9>")])))
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/p"))
        #expect(try renderer.row("r1", .html).contains(#"<span class="tk-field" data-field="amount">&lt;9&gt;</span>"#))
        table.register(price)
        #expect(try renderer.row("r1", .html).contains("<b>&lt;9&gt;</b>"))
        #expect(try renderer.row("r1", .json).contains(#""fields":{"amount":"\u003c9\u003e"}"#))
        #expect(!CellKindRegistry().contains("price"))
    }
}
