import HostileTextSupport
import PropertyBased
import Testing
@testable import TableKit

@Suite("Rendering arbitrary text", .shrinking(false))
struct HostileRenderingTests {
    /// Eight arbitrary strings: enough for every text a cell, a row or a section carries.
    static let texts = HostileText.text.array(of: 8)

    /// Content with every text part set from `texts`, an allowed image address and an extra field.
    static func content(_ texts: [String], imageSize: CellImage.Size?) -> CellContent {
        CellContent(
            title: texts[0], subtitle: texts[1], detail: texts[2], accessory: .checkmark,
            image: CellImage(url: "/public/" + texts[3], alt: texts[4], size: imageSize),
            badge: texts[5], fields: [CellField(name: texts[6], value: texts[7])]
        )
    }

    /// The parts a kind shows: (opening markup, text, closing markup).
    static func shownParts(of kind: CellKind, _ content: CellContent) -> [(String, String, String)] {
        let image = content.image!
        let imageParts = [("src=\"", image.url, "\""), ("alt=\"", image.alt, "\"")]
        let field = content.fields[0]
        let fieldParts = [("data-field=\"", field.name, "\">"), ("data-field=\"" + String(decoding: ReferenceEscaping.html(field.name), as: UTF8.self) + "\">", field.value, "</span>")]
        func span(_ name: String, _ text: String?) -> (String, String, String) { ("<span class=\"tk-\(name)\">", text!, "</span>") }
        switch kind.reuseIdentifier {
        case "basic": return imageParts + [span("title", content.title)] + fieldParts + [span("badge", content.badge)]
        case "subtitle":
            return imageParts + [span("title", content.title), span("subtitle", content.subtitle), span("detail", content.detail)]
                + fieldParts + [span("badge", content.badge)]
        case "value": return imageParts + [span("title", content.title), span("detail", content.detail)] + fieldParts + [span("badge", content.badge)]
        case "image": return imageParts + [span("title", content.title), span("subtitle", content.subtitle), span("badge", content.badge)]
        case "button": return [span("button-title", content.title)]
        default: Issue.record("no expectation for kind \(kind.reuseIdentifier)"); return []
        }
    }

    @Test("Every built-in cell kind writes each text part as the reference escaper does, in one reservation",
          arguments: CellKind.builtIns, [nil, CellImage.Size(width: 64, height: 48)])
    func builtInKindsInHTML(kind: CellKind, imageSize: CellImage.Size?) async throws {
        await propertyCheckFailingOnThrow(input: Self.texts) { texts in
            let content = Self.content(texts, imageSize: imageSize)
            var out = OutputBuffer()
            kind.render(content, &out)
            for (open, text, close) in Self.shownParts(of: kind, content) {
                #expect(ReferenceEscaping.enclosed(in: out.bytes, between: open, and: close) == ReferenceEscaping.html(text),
                        "\(kind.reuseIdentifier): \(open)…\(close)")
            }
            #expect(out.reservationOverruns == 0, "a reservation was too small for \(kind.reuseIdentifier)")
        }
    }

    @Test("A row of every built-in kind renders its id and texts escaped in HTML and decodable in JSON",
          arguments: CellKind.builtIns)
    func rowsInBothFormats(kind: CellKind) async throws {
        await propertyCheckFailingOnThrow(input: HostileText.text, Self.texts) { id, texts in
            let content = Self.content(texts, imageSize: .init(width: 1, height: 2))
            let renderer = TableRenderer(table: singleCellTable(TableCell(kind, content), id: id), context: RenderContext(basePath: "/pages/p"))
            var html = OutputBuffer()
            try renderer.renderRow(RowID(id), as: .html, into: &html)
            #expect(ReferenceEscaping.enclosed(in: html.bytes, between: "data-row=\"", and: "\"") == ReferenceEscaping.html(id))
            #expect(ReferenceEscaping.enclosed(in: html.bytes, between: "<span class=\"tk-\(kind.reuseIdentifier == "button" ? "button-title" : "title")\">", and: "</span>")
                    == ReferenceEscaping.html(texts[0]))
            #expect(html.reservationOverruns == 0)

            var json = OutputBuffer()
            try renderer.renderRow(RowID(id), as: .json, into: &json)
            #expect(json.reservationOverruns == 0)
            let row = try JSONTree.parse(json.bytes)
            #expect(row["id"]?.utf8 == Array(id.utf8))
            #expect(row["title"]?.utf8 == Array(texts[0].utf8))
            #expect(row["subtitle"]?.utf8 == Array(texts[1].utf8))
            #expect(row["detail"]?.utf8 == Array(texts[2].utf8))
            #expect(row["image"]?["url"]?.utf8 == Array(("/public/" + texts[3]).utf8))
            #expect(row["image"]?["alt"]?.utf8 == Array(texts[4].utf8))
            #expect(row["badge"]?.utf8 == Array(texts[5].utf8))
            #expect(row["fields"]?[texts[6]]?.utf8 == Array(texts[7].utf8))
            #expect(!json.bytes.contains(UInt8(ascii: "<")) && !json.bytes.contains(UInt8(ascii: "\n")) && !json.bytes.contains(UInt8(ascii: "\r")))
        }
    }

    @Test("Section ids, headers, footers, header views, titles and row actions render escaped and decode whole")
    func sectionsInBothFormats() async throws {
        await propertyCheckFailingOnThrow(input: Self.texts) { texts in
            let (table, page) = Self.hostilePage(texts)
            let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/p", variantQuery: "q=" + texts[7]))
            var html = OutputBuffer()
            renderer.renderPage(as: .html, into: &html)
            let bytes = html.bytes
            let headerID = PageContract.headerDOMID(forSection: page.sectionID)
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "<h1 class=\"tk-title\">", and: "</h1>") == ReferenceEscaping.html(texts[0]))
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "data-section=\"", and: "\"") == ReferenceEscaping.html(page.sectionID.rawValue))
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "<h2 id=\"\(headerID)\">", and: "</h2>") == ReferenceEscaping.html(texts[2]))
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "<p>", and: "</p>") == ReferenceEscaping.html(texts[3]))
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "<div class=\"tk-cell\" data-kind=\"basic\"><span class=\"tk-title\">", and: "</span>")
                    == ReferenceEscaping.html(texts[4]))
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "<button type=\"submit\" class=\"tk-destructive\">", and: "</button>") == ReferenceEscaping.html(texts[5]))
            let placeholder = String(decoding: ReferenceEscaping.html(texts[7]), as: UTF8.self)
            #expect(ReferenceEscaping.enclosed(in: bytes, between: "aria-label=\"\(placeholder)\" value=\"", and: "\"") == ReferenceEscaping.html(texts[6]))
            #expect(!ReferenceEscaping.contains(bytes, Array("<script".utf8)))
            #expect(html.reservationOverruns == 0)

            var json = OutputBuffer()
            renderer.renderPage(as: .json, into: &json)
            #expect(json.reservationOverruns == 0)
            let object = try JSONTree.parse(json.bytes)
            #expect(object["title"]?.utf8 == Array(texts[0].utf8))
            let sections = try #require(object["sections"])
            #expect(sections[0]?["id"]?.utf8 == Array(page.sectionID.rawValue.utf8))
            #expect(sections[0]?["header"]?.utf8 == Array(texts[2].utf8))
            #expect(sections[0]?["footer"]?.utf8 == Array(texts[3].utf8))
            #expect(sections[1]?["headerView"]?["title"]?.utf8 == Array(texts[4].utf8))
            let row = try #require(sections[0]?["rows"]?[0])
            #expect(row["id"]?.utf8 == Array(page.rowID.rawValue.utf8))
            #expect(row["actions"]?[0]?["title"]?.utf8 == Array(texts[5].utf8))
            #expect(row["actions"]?[0]?["field"]?["value"]?.utf8 == Array(texts[6].utf8))
        }
    }

    @Test("Patches of every operation are one JSON line whose html is escaped and whose data decodes whole",
          arguments: [true, false])
    func patches(includeHTML: Bool) async throws {
        await propertyCheckFailingOnThrow(input: Self.texts) { texts in
            let (table, page) = Self.hostilePage(texts)
            let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/p"))
            let changeset = Changeset([
                .replaceRow(page.rowID),
                .insertRow(page.rowID, section: page.sectionID, placement: .after(RowID(texts[1]))),
                .moveRow(page.rowID, section: page.sectionID, placement: .before(RowID(texts[2]))),
                .deleteRow(RowID(texts[3])),
                .insertSection(page.sectionID, placement: .after(SectionID(texts[4]))),
                .replaceSection(page.sectionID),
                .deleteSection(SectionID(texts[5])),
                .reset,
            ])
            var out = OutputBuffer()
            renderer.renderPatch(changeset, version: 7, includeHTML: includeHTML, into: &out)
            #expect(out.reservationOverruns == 0)
            // One SSE data line: no line end of any kind.
            for separator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
                #expect(!ReferenceEscaping.contains(out.bytes, Array(separator.utf8)))
            }
            let ops = try #require(try JSONTree.parse(out.bytes)["ops"]?.elements)
            try #require(ops.count == 8)
            #expect(ops[0]["row"]?.utf8 == Array(page.rowID.rawValue.utf8))
            #expect(ops[1]["after"]?.utf8 == Array(texts[1].utf8))
            #expect(ops[2]["before"]?.utf8 == Array(texts[2].utf8))
            #expect(ops[3]["row"]?.utf8 == Array(texts[3].utf8))
            #expect(ops[4]["after"]?.utf8 == Array(texts[4].utf8))
            #expect(ops[6]["section"]?.utf8 == Array(texts[5].utf8))
            #expect(ops[0]["data"]?["title"]?.utf8 == Array(texts[1].utf8))
            #expect(ops[5]["data"]?["footer"]?.utf8 == Array(texts[3].utf8))
            if includeHTML {
                let html = try #require(ops[0]["html"]?.utf8)
                #expect(ReferenceEscaping.enclosed(in: html, between: "<span class=\"tk-title\">", and: "</span>") == ReferenceEscaping.html(texts[1]))
                let sectionHTML = try #require(ops[5]["html"]?.utf8)
                #expect(ReferenceEscaping.enclosed(in: sectionHTML, between: "<p>", and: "</p>") == ReferenceEscaping.html(texts[3]))
            } else {
                #expect(ops[0]["html"] == nil)
            }
        }
    }

    @Test("An image cell with an empty or quote-only subtitle renders (it used to overrun its reservation and trap)",
          arguments: ["", "\"", String(repeating: "\"", count: 1000), "&'<>"])
    func imageCellSubtitles(subtitle: String) throws {
        let content = CellContent(title: "Harbour", subtitle: subtitle, image: CellImage(url: "/public/a.png", alt: ""))
        var out = OutputBuffer()
        CellKind.image.render(content, &out)
        #expect(ReferenceEscaping.enclosed(in: out.bytes, between: "<span class=\"tk-subtitle\">", and: "</span>") == ReferenceEscaping.html(subtitle))
        #expect(out.reservationOverruns == 0)
    }

    @Test("Writing past a reservation gives the same bytes, written again with room, instead of trapping")
    func writerOverflow() {
        var out = OutputBuffer()
        out.append("<")
        let long = String(repeating: "\"é", count: 5000)
        out.append(maxCount: 3) { writer in
            writer.write("ab")
            writer.writeEscapedHTML(long)
            writer.write(byte: UInt8(ascii: "|"))
            writer.write(42)
            writer.writeJSONString("x\"")
        }
        out.append(maxCount: 0) { $0.write("zero") }
        let expected = Array("<ab".utf8) + ReferenceEscaping.html(long) + Array("|42\"x\\\"\"zero".utf8)
        #expect(out.bytes == expected)
        #expect(out.reservationOverruns == 2)
    }

    // MARK: Fixtures

    /// A page built from eight texts: title texts[0]; section "a…" with header texts[2], footer
    /// texts[3], and a deletable row "r…" titled texts[1] with a destructive action titled
    /// texts[5] whose field holds texts[6]; section "b…" with a header view titled texts[4].
    static func hostilePage(_ texts: [String]) -> (TableAdapter, (sectionID: SectionID, rowID: RowID)) {
        let sectionID = SectionID("a" + texts[0])
        let rowID = RowID("r" + texts[2])
        let row = GoldenRow(rowID, .subtitle, CellContent(title: texts[1], subtitle: texts[7]))
        row.deletable = true
        row.movable = true
        row.actions = [RowAction(name: texts[3], title: texts[5], style: .destructive, field: .init(name: texts[4], placeholder: texts[7], value: texts[6]))]
        let other = GoldenRow(RowID("s" + texts[2]), .basic, CellContent(title: texts[0]))
        let root = CascadingRootTableDelegate(childDelegates: [
            GoldenSection(id: sectionID, header: texts[2], footer: texts[3], rows: [row, other]),
            GoldenSection(id: SectionID("b" + texts[0]), header: nil, footer: nil, headerView: TableCell(.basic, CellContent(title: texts[4])), rows: []),
        ])
        let table = TableAdapter(root: root)
        table.title = texts[0]
        return (table, (sectionID, rowID))
    }
}
