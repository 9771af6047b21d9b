import Escaping
import Foundation
import HostileTextSupport
import PropertyBased
import Testing
import TableKit

@Suite("Escaping hostile text")
struct EscapingTests {
    static let hostile = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "' onmouseover='alert(1)",
        "</textarea><script>alert(1)</script>",
        "line\u{2028}separator\u{2029}paragraph",
        "tab\tnew\nline\u{01}&amp;",
    ]

    @Test("HTML escaping leaves no markup-significant character", arguments: hostile)
    func htmlEscaping(_ text: String) {
        var out = OutputBuffer()
        out.appendEscapedHTML(text)
        let escaped = out.string
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
        #expect(!escaped.contains("\u{2028}") && !escaped.contains("\u{2029}"))
    }

    @Test("HTML escaping produces the expected entities and copies plain runs unchanged")
    func htmlEntities() {
        var out = OutputBuffer()
        out.appendEscapedHTML("a<b>&\"c'é\u{2028}")
        #expect(out.string == "a&lt;b&gt;&amp;&quot;c&#39;é&#x2028;")
        out.removeAll()
        out.appendEscapedHTML("plain text, no escapes — ünïcode ✓")
        #expect(out.string == "plain text, no escapes — ünïcode ✓")
    }

    @Test("JSON strings are valid, single-line, safe in HTML, and decode to the original", arguments: hostile)
    func jsonEscaping(_ text: String) throws {
        var out = OutputBuffer()
        out.append("[")
        out.appendJSONString(text)
        out.append("]")
        let json = out.string
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("\n") && !json.contains("\u{2028}"))
        let decoded = try JSONSerialization.jsonObject(with: Data(out.bytes)) as? [String]
        #expect(decoded == [text])
    }

    @Test("Hostile cell text is escaped in rendered HTML and JSON rows")
    func hostileRow() throws {
        let content = CellContent(
            title: "</textarea><script>alert(1)</script>",
            subtitle: "\"><b onclick=x>",
            detail: "a\u{2028}b",
            image: CellImage(url: "javascript:alert(1)", alt: "\" onerror=\"alert(1)")
        )
        let table = singleCellTable(TableCell(.subtitle, content), id: "<r>")
        let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/p"))
        let html = try renderer.row("<r>", .html)
        #expect(!html.contains("<script") && !html.contains("<b ") && !html.contains("\u{2028}"))
        #expect(!html.contains("javascript:") && !html.contains("<img"))
        #expect(html.contains("&lt;/textarea&gt;&lt;script&gt;"))
        #expect(html.contains(#"data-row="&lt;r&gt;""#))

        let json = try renderer.row("<r>", .json)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["title"] as? String == content.title)
        #expect(object?["detail"] as? String == "a\u{2028}b")
        #expect(!json.contains("<") && !json.contains("\u{2028}"))
    }

    @Test("Only http, https and scheme-less addresses pass the URL policy", arguments: [
        ("/public/a.png", true), ("https://x.org/a.png", true), ("a.png?x=1:2", true), ("//cdn.x.org/a", true),
        ("javascript:alert(1)", false), (" JavaScript:alert(1)", false), ("java\tscript:alert(1)", false),
        ("data:text/html,<script>", false), ("vbscript:x", false),
    ])
    func urlPolicy(_ url: String, _ allowed: Bool) {
        #expect(URLPolicy.allows(url) == allowed)
    }

    @Test("Percent-encoding keeps unreserved characters only")
    func percentEncoding() {
        var out = OutputBuffer()
        out.appendPercentEncoded("a b/c?d&e=é~_.-")
        #expect(out.string == "a%20b%2Fc%3Fd%26e%3D%C3%A9~_.-")
    }

    @Test("The string escapers other modules use are the renderer's, byte for byte, and escape all that JSON lines need")
    func oneImplementation() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            #expect(Array(HTMLEscaping.escape(text).utf8) == ReferenceEscaping.html(text))
            var html = OutputBuffer()
            html.appendEscapedHTML(text)
            #expect(html.bytes == ReferenceEscaping.html(text))

            let json = JSONEscaping.escape(text)
            var rendered = OutputBuffer()
            rendered.appendEscapedJSON(text)
            #expect(Array(json.utf8) == rendered.bytes)
            #expect(!json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || "<>&\u{2028}\u{2029}".unicodeScalars.contains($0) })
            #expect((try? JSONTree.parse(Array(("[\"" + json + "\"]").utf8)))?[0]?.utf8 == Array(text.utf8))

            var percent = OutputBuffer()
            percent.appendPercentEncoded(text)
            #expect(URLComponentEncoding.encode(text) == percent.string)
            #expect(percent.bytes.allSatisfy { URLComponentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        }
    }

    @Test("Numbers are written as integers, negatives and shortest fractions")
    func numbers() {
        var out = OutputBuffer()
        out.append(0)
        out.append(" ")
        out.append(-1234567890)
        out.append(" ")
        out.append(44.0)
        out.append(" ")
        out.append(12.5)
        out.append(" ")
        out.append(Int.min)
        #expect(out.string == "0 -1234567890 44 12.5 -9223372036854775808")
    }
}
