import HostileTextSupport
import PropertyBased
import Testing
import TableKit

@Suite("Page contract")
struct PageContractTests {
    /// What HTML requires of an id (at least one character, no ASCII whitespace), and what the
    /// contract promises beyond: only letters, digits, `-` and `_`, safe in CSS, fragments and attributes.
    static func isValidDOMID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    @Test("Ids of letters, digits and dashes keep their DOM ids; others are encoded")
    func examples() {
        #expect(PageContract.domID(forRow: "todo-3") == "row-todo-3")
        #expect(PageContract.domID(forSection: "open") == "section-open")
        #expect(PageContract.headerDOMID(forSection: "open") == "section-open-header")
        #expect(PageContract.domID(forSection: "Science fiction") == "section-Science_20fiction")
        #expect(PageContract.domID(forRow: "a\"b_c") == "row-a_22b_5Fc")
        #expect(PageContract.domID(forRow: "é") == "row-_C3_A9")
        #expect(PageContract.domID(forRow: "") == "row-")
        // A section named "a-header" must not take the id of section "a"'s header.
        #expect(PageContract.domID(forSection: "a-header") == "section-a_2Dheader")
        #expect(PageContract.headerDOMID(forSection: "a-header") == "section-a_2Dheader-header")
    }

    @Test("Any row or section id gives valid DOM ids that decode back to it")
    func validAndReversible() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            let row = PageContract.domID(forRow: RowID(text))
            let section = PageContract.domID(forSection: SectionID(text))
            let header = PageContract.headerDOMID(forSection: SectionID(text))
            #expect(Self.isValidDOMID(row) && Self.isValidDOMID(section) && Self.isValidDOMID(header))
            #expect(PageContract.rowID(fromDOMID: row) == RowID(text))
            #expect(PageContract.sectionID(fromDOMID: section) == SectionID(text))
            #expect(!section.hasSuffix("-header"))
        }
    }

    @Test("Different ids never share a DOM id, whatever kind of element they name")
    func distinct() async {
        let pieces = Gen.element(of: ["a", "-", "header", "-header", "_", "_2D", "2D", " ", "é", "\"", "row-", "section-"]).map { $0 ?? "" }
        let id = pieces.array(of: 0...5).map { $0.joined() }
        await propertyCheckFailingOnThrow(input: id, id) { first, second in
            let firstIDs = [PageContract.domID(forRow: RowID(first)), PageContract.domID(forSection: SectionID(first)),
                            PageContract.headerDOMID(forSection: SectionID(first))]
            let secondIDs = [PageContract.domID(forRow: RowID(second)), PageContract.domID(forSection: SectionID(second)),
                             PageContract.headerDOMID(forSection: SectionID(second))]
            #expect(Set(firstIDs).count == 3)
            if first != second {
                #expect(Set(firstIDs).isDisjoint(with: secondIDs), "\(first) and \(second) share a DOM id")
            }
        }
    }

    @Test("The renderer writes the contract's DOM ids for rows, sections, headers and the index")
    func rendererUsesTheContract() {
        let hostile = "Science fiction \"&' é/"
        let root = GoldenSectionIndexRoot(childDelegates: [
            GoldenSection(id: SectionID(hostile), header: "SF", footer: nil, rows: [GoldenRow(RowID(hostile), .basic, CellContent(title: "x"))]),
        ])
        let html = TableRenderer(table: TableAdapter(root: root), context: RenderContext(basePath: "/pages/p")).page(.html)
        let section = PageContract.domID(forSection: SectionID(hostile))
        #expect(html.contains(##"<a href="#\##(section)">SF</a>"##))
        #expect(html.contains(#"<section id="\#(section)" class="tk-section""#))
        #expect(html.contains(#"aria-labelledby="\#(PageContract.headerDOMID(forSection: SectionID(hostile)))""#))
        #expect(html.contains(#"<h2 id="\#(PageContract.headerDOMID(forSection: SectionID(hostile)))">SF</h2>"#))
        #expect(html.contains(#"<div id="\#(PageContract.domID(forRow: RowID(hostile)))" class="tk-row""#))
    }

    @Test("The patch operations are the documented wire names")
    func patchNames() {
        #expect(PageContract.PatchOperation.allCases.map(\.rawValue) == [
            "insert", "delete", "replace", "move", "insert-section", "delete-section", "replace-section", "move-section",
            "replace-header", "section-next", "reset",
        ])
        #expect(PageContract.PatchEvent.allCases.map(\.rawValue) == ["patch", "reset"])
    }
}
