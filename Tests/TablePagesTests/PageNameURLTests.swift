import Escaping
import HostileTextSupport
import MicroHTTP
import PropertyBased
import TableKit
@testable import TablePages
import Testing

/// Any page name survives every URL a page has: the path the renderer writes, as a server
/// percent-decodes and a router splits it, leads back to the page, whatever suffix follows.
@Suite struct PageNameURLTests {
    /// The segments a server hands the router for `path` (RequestParser's rule: split on `/`,
    /// each segment percent-decoded).
    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/").map { PercentEncoding.decode($0) ?? "\u{FFFD}" }
    }

    @Test func anyNameComesBackFromItsPageRowSectionAndExportURLs() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, HostileText.text) { name, other in
            guard !name.isEmpty, !other.isEmpty, name != other else { return }
            var registry = PageRegistry()
            // A second page whose name may be the first's with a format's suffix, or the reverse.
            for page in [name, other, name + ".csv", name + ".json"] where page != "" {
                registry.register(PageDefinition(name: page, title: page) { _ in throw PageDefinition.VariantError(message: "unused") })
            }
            let path = PageContract.pagePath(named: name)
            for suffix in ["", ".json", ".csv", ".ndjson", "/rows/1", "/sections/all.json", "/events"] {
                let segments = Self.segments(path + suffix)
                #expect(segments.count >= 2 && segments[0] == "pages")
                let pageSegment = suffix.hasPrefix(".") ? String(segments[1].dropLast(suffix.utf8.count)) : segments[1]
                // The name's segment holds no dot, so no suffix reads as part of it, nor it as one.
                #expect(!pageSegment.contains("."))
                if suffix.hasPrefix(".") { #expect(segments[1].hasSuffix(suffix)) }
                #expect(registry.page(inPath: pageSegment)?.name == name, "\(path)\(suffix)")
            }
        }
    }

    @Test func aPercentEncodedNameIsReadTooWhenNoTildeNameMatches() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { name in
            guard !name.isEmpty, !name.contains("~"), !name.contains("+") else { return }
            var registry = PageRegistry()
            registry.register(PageDefinition(name: name, title: name) { _ in throw PageDefinition.VariantError(message: "unused") })
            let segments = Self.segments("/pages/" + PercentEncoding.encode(name))
            #expect(registry.page(inPath: segments.count == 2 ? segments[1] : "")?.name == name)
        }
    }

    @Test func anyKeyTupleComesBackFromADatasetteToken() async {
        await propertyCheckFailingOnThrow(input: HostileText.text.array(of: 1...3)) { values in
            let token = values.map(TildeEncoding.encode).joined(separator: ",")
            #expect(!token.contains("/") && !token.contains("."))
            let parts = token.split(separator: ",", omittingEmptySubsequences: false).map { TildeEncoding.decode(String($0)) }
            #expect(parts == values.map(Optional.some))
        }
    }
}
