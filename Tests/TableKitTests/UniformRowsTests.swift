import HostileTextSupport
import PropertyBased
import Testing
@testable import TableKit

/// A section that declares uniform rows (``TableDataSource/hasUniformRows(inSection:)``) writes
/// its rows after the first from a template and ``TableDataSource/writeFields(forRowAt:into:)``;
/// these tests hold that path to the bytes of the one that makes every row whole.
@Suite("Uniform rows write the bytes whole rows write", .shrinking(false))
struct UniformRowsTests {
    /// Four words of a seed: every table of a check is built from one.
    static let seeds = Gen<UInt64>.value().array(of: 4)

    @Test("Pages and sections, flat: the uniform path writes what whole rows write, in JSON and HTML")
    func flatSources() async {
        await propertyCheckFailingOnThrow(count: 60, input: Self.seeds) { seed in
            var rng = Xoshiro(seed: (seed[0], seed[1], seed[2], seed[3]))
            let scenario = UniformScenario.random(using: &rng)
            let whole = UniformFixtureSource(scenario, declaresUniform: false)
            let uniform = UniformFixtureSource(scenario, declaresUniform: true)
            try Self.checkSameOutput(scenario, whole: whole, uniform: uniform, cellCalls: { uniform.cellCalls }, resetCalls: { uniform.cellCalls = [:] }, using: &rng)
        }
    }

    @Test("Pages and sections, cascading: a section child that declares uniform rows over row children writes what whole rows write")
    func cascadingSources() async {
        await propertyCheckFailingOnThrow(count: 40, input: Self.seeds) { seed in
            var rng = Xoshiro(seed: (seed[0], seed[1], seed[2], seed[3]))
            let scenario = UniformScenario.random(using: &rng)
            let whole = UniformFixtureRoot(scenario, declaresUniform: false, using: &rng)
            let uniform = UniformFixtureRoot(scenario, declaresUniform: true, using: &rng)
            // Rows that leave their fields to the default make their cells to write them: no count of cells made.
            try Self.checkSameOutput(scenario, whole: whole, uniform: uniform, cellCalls: nil, resetCalls: {}, using: &rng)
        }
    }

    @Test("Uniform rows of every JSON value write the bytes of the format (golden)", arguments: [false, true])
    func golden(declaresUniform: Bool) throws {
        func row(_ id: String, _ fields: [CellField]) -> UniformScenario.Row { UniformScenario.Row(id: RowID(id), fields: fields) }
        var section = UniformScenario.Section.plain(id: "s", rows: [
            row("a", [CellField(name: "n", value: "NULL", json: .null), CellField(name: "t", value: "x<y\u{2028}\"")]),
            row("b\"<", [CellField(name: "n", value: "1", json: .integer(Int64.min)), CellField(name: "t", value: "", json: .number(.infinity))]),
            row("c", []),
            row("d", [CellField(name: "n", value: "", json: .number(-0.0)), CellField(name: "t", value: "", json: .number(0.1)),
                      CellField(name: "u", value: "", json: .array([.number(1e300), .object([JSONProperty(name: "k", value: .number(.nan))])]))]),
            row("e", [CellField(name: "n", value: "", json: .integer(Int64.max)), CellField(name: "t", value: "", json: .bool(false))]),
        ])
        section.template.kind = "value"
        section.template.content = CellContent(title: "T", badge: "B", jsonProperties: [JSONProperty(name: "extra", value: .integer(1))])
        let scenario = UniformScenario(title: "G", sections: [section], rowLimit: nil)
        let source = UniformFixtureSource(scenario, declaresUniform: declaresUniform)
        let renderer = TableRenderer(table: TableAdapter(root: source), context: RenderContext(basePath: "/pages/p"))
        source.cellCalls = [:]
        var out = OutputBuffer()
        renderer.renderPage(as: .json, into: &out)
        let head = #"{"title":"G","version":0,"sections":[{"id":"s","header":null,"footer":null,"rowCount":5,"rows":["#
        let tail = #"],"next":null}],"next":null}"#
        let rows = [
            #"{"id":"a","kind":"value","height":null,"title":"T","badge":"B","fields":{"n":null,"t":"x\u003cy\u2028\""},"extra":1}"#,
            #"{"id":"b\"\u003c","kind":"value","height":null,"title":"T","badge":"B","fields":{"n":-9223372036854775808,"t":null},"extra":1}"#,
            #"{"id":"c","kind":"value","height":null,"title":"T","badge":"B","extra":1}"#,
            #"{"id":"d","kind":"value","height":null,"title":"T","badge":"B","fields":{"n":0,"t":0.1,"u":[1e+300,{"k":null}]},"extra":1}"#,
            #"{"id":"e","kind":"value","height":null,"title":"T","badge":"B","fields":{"n":9223372036854775807,"t":false},"extra":1}"#,
        ]
        #expect(out.string == head + rows.joined(separator: ",") + tail)
        #expect(source.cellCalls[0, default: 0] == (declaresUniform ? 1 : 5), "the uniform path makes the first row's cell only")
    }

    @Test("A uniform section of no rows and of one row renders as whole rows do", arguments: [0, 1])
    func tinySections(rowCount: Int) throws {
        let rows = (0..<rowCount).map { UniformScenario.Row(id: RowID("r\($0)"), fields: [CellField(name: "f", value: "v")]) }
        let scenario = UniformScenario(title: nil, sections: [.plain(id: "s", rows: rows), .plain(id: "t", rows: [])], rowLimit: nil)
        let outputs = [false, true].map { declaresUniform in
            let source = UniformFixtureSource(scenario, declaresUniform: declaresUniform)
            let renderer = TableRenderer(table: TableAdapter(root: source), context: RenderContext(basePath: "/pages/p"))
            var page = OutputBuffer()
            renderer.renderPage(as: .json, into: &page)
            var section = OutputBuffer()
            try? renderer.renderSection("s", as: .json, into: &section)
            return (page.string, section.string)
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[1].0.contains(#""rowCount":\#(rowCount),"#))
    }

    @Test("Static rows of a section that declares uniform rows keep their fields (the bare delegate's routing wrote none)")
    func staticRowsOfUniformSection() {
        func cell(_ value: String) -> TableCell { TableCell(.basic, CellContent(title: "T", fields: [CellField(name: "f", value: value)])) }
        let outputs = [false, true].map { declaresUniform in
            let section = UniformStaticSection(id: "s", rows: [StaticRow(id: "a", cell: cell("1")), StaticRow(id: "b", cell: cell("2"))])
            section.declaresUniform = declaresUniform
            return TableRenderer(table: TableAdapter(root: CascadingRootTableDelegate(childDelegates: [section])),
                                 context: RenderContext(basePath: "/pages/p")).page(.json)
        }
        #expect(outputs[1] == outputs[0])
        #expect(outputs[1].contains(#"{"id":"b","kind":"basic","height":null,"title":"T","fields":{"f":"2"},"selectable":false}"#))
    }

    @Test("Rows with no fields write no fields member, first row or later")
    func noFields() throws {
        let rows = [
            UniformScenario.Row(id: "a", fields: []),
            UniformScenario.Row(id: "b", fields: [CellField(name: "f", value: "1", json: .integer(1))]),
            UniformScenario.Row(id: "c", fields: []),
            UniformScenario.Row(id: "d", fields: []),
        ]
        let scenario = UniformScenario(title: nil, sections: [.plain(id: "s", rows: rows)], rowLimit: nil)
        let outputs = [false, true].map { declaresUniform in
            let renderer = TableRenderer(table: TableAdapter(root: UniformFixtureSource(scenario, declaresUniform: declaresUniform)),
                                         context: RenderContext(basePath: "/pages/p"))
            return renderer.page(.json)
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[1].components(separatedBy: "\"fields\"").count == 2, "only row b has fields: \(outputs[1])")
        #expect(outputs[1].contains(#"{"id":"c","kind":"basic","height":null}"#))
    }

    // MARK: Checks

    /// Renders the page and every section (with random `after` and `limit`) from `whole` and
    /// `uniform`, which show the same scenario, and expects the same bytes; the uniform JSON
    /// must also decode to every row's fields, and make only the first row's cell of a uniform section.
    static func checkSameOutput(
        _ scenario: UniformScenario, whole: any TableRoot, uniform: any TableRoot,
        cellCalls: (() -> [Int: Int])?, resetCalls: () -> Void, using rng: inout Xoshiro
    ) throws {
        let variant = Bool.random(using: &rng) ? "" : "q=" + UniformScenario.shortText(using: &rng)
        let context = RenderContext(basePath: "/pages/p", variantQuery: variant, rowLimit: scenario.rowLimit)
        let wholeRenderer = TableRenderer(table: TableAdapter(root: whole), context: context)
        let uniformRenderer = TableRenderer(table: TableAdapter(root: uniform), context: context)

        resetCalls()
        var expected = OutputBuffer()
        wholeRenderer.renderPage(as: .json, into: &expected)
        var actual = OutputBuffer()
        uniformRenderer.renderPage(as: .json, into: &actual)
        try #require(actual.string == expected.string, "page JSON differs")
        #expect(actual.reservationOverruns == 0)
        for (index, section) in scenario.sections.enumerated() {
            guard let cellCalls else { break }
            let walked = min(section.rows.count, scenario.rowLimit ?? section.rows.count)
            let expectedCalls = section.declaresUniform ? min(1, walked) : walked
            #expect(cellCalls()[index, default: 0] == expectedCalls, "cells made for section \(index) of a page")
        }
        try checkFields(actual.bytes, scenario: scenario)
        #expect(uniformRenderer.page(.html) == wholeRenderer.page(.html), "page HTML differs")

        for (index, section) in scenario.sections.enumerated() {
            let start = section.rows.isEmpty ? 0 : Int.random(in: 0...section.rows.count, using: &rng)
            let after = start == 0 ? nil : section.rows[start - 1].id
            let limit = Bool.random(using: &rng) ? nil : Int.random(in: 0...section.rows.count + 1, using: &rng)
            for format in [RenderFormat.json, .html] {
                resetCalls()
                var expected = OutputBuffer()
                try wholeRenderer.renderSection(section.id, after: after, limit: limit, as: format, into: &expected)
                var actual = OutputBuffer()
                try uniformRenderer.renderSection(section.id, after: after, limit: limit, as: format, into: &actual)
                try #require(actual.string == expected.string, "section \(index) \(format) after \(after?.rawValue ?? "-") limit \(limit ?? -1) differs")
                #expect(actual.reservationOverruns == 0)
                if format == .json, let cellCalls {
                    let walked = max(0, min(section.rows.count - start, limit ?? scenario.rowLimit ?? section.rows.count))
                    #expect(cellCalls()[index, default: 0] == (section.declaresUniform ? min(1, walked) : walked),
                            "cells made for section \(index) from row \(start)")
                }
            }
        }
    }

    /// Decodes a page and expects each row it shows to hold its fields, and no `fields` member
    /// when it has none.
    static func checkFields(_ bytes: [UInt8], scenario: UniformScenario) throws {
        let page = try JSONTree.parse(bytes)
        for (index, section) in scenario.sections.enumerated() {
            let rows = try #require(page["sections"]?[index]?["rows"]).elements
            try #require(rows.count == min(section.rows.count, scenario.rowLimit ?? section.rows.count))
            for (row, decoded) in zip(section.rows, rows) {
                #expect(decoded["id"]?.utf8 == Array(row.id.rawValue.utf8))
                guard !row.fields.isEmpty else {
                    #expect(decoded["fields"] == nil, "a row without fields has no fields member")
                    continue
                }
                guard case .object(let members)? = decoded["fields"] else {
                    Issue.record("row \(row.id) has no fields object")
                    continue
                }
                #expect(members.count == row.fields.count)
                for field in row.fields {
                    let value = field.json ?? .string(field.value)
                    #expect(members[field.name].map { Self.decoded($0, matches: value) } == true, "field \(field.name) of row \(row.id)")
                }
            }
        }
    }

    /// Whether a decoded value is what `value` writes: a number that is not finite as null,
    /// strings compared by their bytes.
    static func decoded(_ tree: JSONTree, matches value: JSONValue) -> Bool {
        switch (tree, value) {
        case (.null, .null): true
        case (.null, .number(let number)): !number.isFinite
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left), .integer(let right)): left == Double(right)
        case (.number(let left), .number(let right)): left == right
        case (.string(let left), .string(let right)): Array(left.utf8) == Array(right.utf8)
        case (.array(let left), .array(let right)): left.count == right.count && zip(left, right).allSatisfy { decoded($0, matches: $1) }
        case (.object(let left), .object(let right)):
            left.count == right.count && right.allSatisfy { member in left[member.name].map { decoded($0, matches: member.value) } ?? false }
        default: false
        }
    }
}

// MARK: - Fixtures

/// A random table whose sections each have rows that differ only in ids and fields.
struct UniformScenario {
    /// What every row of a section shares.
    struct Template {
        var kind = CellKind.basic.reuseIdentifier
        var content = CellContent()
        var height = TableHeight.automatic
        var estimatedHeight: TableHeight?
        var indentation = 0
        var isSelectable = true
        var isEditable = false
        var editingStyle = EditingStyle.none
        var deleteTitle: String?
        var isMovable = false
        var actions: [RowAction] = []
    }

    /// One row: its id and its cell's fields.
    struct Row {
        var id: RowID
        var fields: [CellField]
    }

    struct Section {
        var id: SectionID
        var header: String?
        var footer: String?
        var template: Template
        var rows: [Row]
        var afterWindow: Int?
        /// Whether the uniform source declares the section uniform.
        var declaresUniform: Bool

        /// A section of `rows` with a default template, declared uniform.
        static func plain(id: SectionID, rows: [Row]) -> Section {
            Section(id: id, header: nil, footer: nil, template: Template(), rows: rows, afterWindow: nil, declaresUniform: true)
        }

        /// The cell of a row.
        func cell(_ row: Int) -> TableCell {
            var content = template.content
            content.fields = rows[row].fields
            return TableCell(reuseIdentifier: template.kind, content: content)
        }
    }

    var title: String?
    var sections: [Section]
    /// The page's row limit.
    var rowLimit: Int?

    // MARK: Random scenarios

    static func random(using rng: inout Xoshiro) -> UniformScenario {
        var rowIDs = Set<String>()
        var sectionIDs = Set<String>()
        let sections = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            // Sections of no and of one row come often: the template starts at the second row.
            let rowCount = [0, 1, 2, Int.random(in: 0...12, using: &rng)].randomElement(using: &rng)!
            let rows = (0..<rowCount).map { _ in
                Row(id: RowID(unique(text(using: &rng), in: &rowIDs)), fields: fields(using: &rng))
            }
            return Section(
                id: SectionID(unique(text(using: &rng), in: &sectionIDs)),
                header: Bool.random(using: &rng) ? shortText(using: &rng) : nil,
                footer: Bool.random(using: &rng) ? shortText(using: &rng) : nil,
                template: template(using: &rng), rows: rows,
                afterWindow: Bool.random(using: &rng) ? Int.random(in: 0...20, using: &rng) : nil,
                declaresUniform: Int.random(in: 0..<5, using: &rng) > 0
            )
        }
        return UniformScenario(
            title: Bool.random(using: &rng) ? shortText(using: &rng) : nil, sections: sections,
            rowLimit: Bool.random(using: &rng) ? nil : Int.random(in: 0...8, using: &rng)
        )
    }

    static func template(using rng: inout Xoshiro) -> Template {
        func optionalText(_ rng: inout Xoshiro) -> String? { Bool.random(using: &rng) ? shortText(using: &rng) : nil }
        func height(_ rng: inout Xoshiro) -> TableHeight {
            [.automatic, .points(44), .points(0), .points(-3), .points(Double.random(in: 0...500, using: &rng))].randomElement(using: &rng)!
        }
        var template = Template()
        template.kind = CellKind.builtIns.randomElement(using: &rng)!.reuseIdentifier
        template.content = CellContent(
            title: optionalText(&rng), subtitle: optionalText(&rng), detail: optionalText(&rng),
            accessory: [.none, .checkmark, .disclosureIndicator, .detailButton].randomElement(using: &rng)!,
            image: Bool.random(using: &rng)
                ? CellImage(url: "/public/" + shortText(using: &rng), alt: shortText(using: &rng),
                            size: Bool.random(using: &rng) ? .init(width: 3, height: 4) : nil)
                : nil,
            badge: optionalText(&rng),
            jsonProperties: (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                JSONProperty(name: ["fields", "id", "kind", "done", shortText(using: &rng)].randomElement(using: &rng)!,
                             value: value(depth: 1, using: &rng))
            }
        )
        template.height = height(&rng)
        template.estimatedHeight = Bool.random(using: &rng) ? height(&rng) : nil
        template.indentation = Int.random(in: -1...3, using: &rng)
        template.isSelectable = Bool.random(using: &rng)
        template.isEditable = Bool.random(using: &rng)
        template.editingStyle = [.none, .delete, .insert].randomElement(using: &rng)!
        template.deleteTitle = optionalText(&rng)
        template.isMovable = Bool.random(using: &rng)
        template.actions = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
            RowAction(name: shortText(using: &rng), title: shortText(using: &rng), style: Bool.random(using: &rng) ? .normal : .destructive,
                      field: Bool.random(using: &rng) ? .init(name: shortText(using: &rng), placeholder: shortText(using: &rng)) : nil)
        }
        return template
    }

    /// Up to five fields of distinct names: JSON values, or text with no JSON of its own.
    static func fields(using rng: inout Xoshiro) -> [CellField] {
        var names = Set<String>()
        return (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            let name = unique(shortText(using: &rng), in: &names)
            if Int.random(in: 0..<4, using: &rng) == 0 {
                return CellField(name: name, value: text(using: &rng))
            }
            return CellField(name: name, value: shortText(using: &rng), json: value(depth: 2, using: &rng))
        }
    }

    /// A JSON value, arrays and objects at most `depth` deep.
    static func value(depth: Int, using rng: inout Xoshiro) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 7), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            let integers: [Int64] = [.min, .max, 0, -1, 1, 1 << 53, -(1 << 53) - 1, 999_999_999_999_999, 1_000_000_000_000_000]
            return .integer(Bool.random(using: &rng) ? integers.randomElement(using: &rng)! : Int64(bitPattern: rng.next()))
        case 3, 4:
            let numbers: [Double] = [
                .infinity, -.infinity, .nan, -.nan, .signalingNaN, -0.0, 0, 0.1, 0.2 + 0.1, 1e300, -1e300, 1e-300, .leastNonzeroMagnitude,
                .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e15, 1e15 - 1, -1e15, 999_999_999_999_999.9,
                123, -123.5, 1e16, 9_007_199_254_740_992, 4.35, 1.0 / 3,
            ]
            return .number(Bool.random(using: &rng) ? numbers.randomElement(using: &rng)! : Double(bitPattern: rng.next()))
        case 5, 6: return .string(text(using: &rng))
        case 7: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth: depth - 1, using: &rng) })
        default:
            var names = Set<String>()
            return .object((0..<Int.random(in: 0...4, using: &rng)).map { _ in
                JSONProperty(name: unique(shortText(using: &rng), in: &names), value: value(depth: depth - 1, using: &rng))
            })
        }
    }

    /// Arbitrary text (``HostileText/text``): now and then over 40 KB.
    static func text(using rng: inout Xoshiro) -> String {
        Int.random(in: 0..<3, using: &rng) == 0 ? HostileText.text.run(using: &rng) : shortText(using: &rng)
    }

    /// A few of ``HostileText/pieces`` and arbitrary scalars.
    static func shortText(using rng: inout Xoshiro) -> String {
        HostileText.short(upTo: 4, using: &rng)
    }

    /// `text`, or `text` with a number after it when `taken` has it, added to `taken`.
    static func unique(_ text: String, in taken: inout Set<String>) -> String {
        var candidate = text
        var number = 0
        while taken.contains(candidate) {
            number += 1
            candidate = text + "·\(number)"
        }
        taken.insert(candidate)
        return candidate
    }
}

/// A flat data source showing a ``UniformScenario``; declares its sections uniform only when
/// asked to, and counts the cells it makes per section.
final class UniformFixtureSource: CascadingBareTableDelegate {
    let scenario: UniformScenario
    let declaresUniform: Bool
    var cellCalls: [Int: Int] = [:]

    init(_ scenario: UniformScenario, declaresUniform: Bool) {
        self.scenario = scenario
        self.declaresUniform = declaresUniform
        super.init()
    }

    private func template(_ indexPath: TableIndexPath) -> UniformScenario.Template { scenario.sections[indexPath.section].template }

    override func numberOfSections() -> Int { scenario.sections.count }
    override func titleForTable() -> String? { scenario.title }
    override func numberOfRows(inSection section: Int) -> Int { scenario.sections[section].rows.count }
    override func numberOfRowsAfterWindow(inSection section: Int) -> Int? { scenario.sections[section].afterWindow }
    override func hasUniformRows(inSection section: Int) -> Bool { declaresUniform && scenario.sections[section].declaresUniform }
    override func sectionID(forSection section: Int) -> SectionID { scenario.sections[section].id }
    override func titleForHeader(inSection section: Int) -> String? { scenario.sections[section].header }
    override func titleForFooter(inSection section: Int) -> String? { scenario.sections[section].footer }
    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { scenario.sections[indexPath.section].rows[indexPath.row].id }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        cellCalls[indexPath.section, default: 0] += 1
        return scenario.sections[indexPath.section].cell(indexPath.row)
    }
    override func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter) {
        for field in scenario.sections[indexPath.section].rows[indexPath.row].fields {
            fields.write(field.name, field.json ?? .string(field.value))
        }
    }
    override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { template(indexPath).height }
    override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { template(indexPath).estimatedHeight }
    override func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { template(indexPath).indentation }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { template(indexPath).isSelectable }
    override func canEditRow(at indexPath: TableIndexPath) -> Bool { template(indexPath).isEditable }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { template(indexPath).editingStyle }
    override func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? { template(indexPath).deleteTitle }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { template(indexPath).isMovable }
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { template(indexPath).actions }
}

/// A ``UniformScenario`` as a cascading tree: a root over section children over row children;
/// the section child declares its rows uniform, and some row children write their fields
/// themselves while others leave it to the default (their cell's fields).
final class UniformFixtureRoot: CascadingRootTableDelegate {
    init(_ scenario: UniformScenario, declaresUniform: Bool, using rng: inout Xoshiro) {
        var sections: [UniformFixtureSection] = []
        for section in scenario.sections {
            let rows = section.rows.indices.map { row -> UniformFixtureRow in
                Bool.random(using: &rng)
                    ? UniformFixtureRow(section: section, row: row)
                    : UniformFieldWritingRow(section: section, row: row)
            }
            sections.append(UniformFixtureSection(section, declaresUniform: declaresUniform && section.declaresUniform, rows: rows))
        }
        title = scenario.title
        super.init(childDelegates: sections)
    }

    private let title: String?
    override func titleForTable() -> String? { title }
}

/// A section child of ``UniformFixtureRoot``.
final class UniformFixtureSection: CascadingSectionTableDelegate {
    let section: UniformScenario.Section
    let declaresUniform: Bool

    init(_ section: UniformScenario.Section, declaresUniform: Bool, rows: [UniformFixtureRow]) {
        self.section = section
        self.declaresUniform = declaresUniform
        super.init(childDelegates: rows)
    }

    override func sectionID(forSection section: Int) -> SectionID { self.section.id }
    override func titleForHeader(inSection section: Int) -> String? { self.section.header }
    override func titleForFooter(inSection section: Int) -> String? { self.section.footer }
    override func numberOfRowsAfterWindow(inSection section: Int) -> Int? { self.section.afterWindow }
    override func hasUniformRows(inSection section: Int) -> Bool { declaresUniform }
}

/// A row child of ``UniformFixtureSection``; its fields are written by the default
/// ``TableDataSource/writeFields(forRowAt:into:)``, from its cell.
class UniformFixtureRow: CascadingBareTableDelegate {
    let section: UniformScenario.Section
    let row: Int

    init(section: UniformScenario.Section, row: Int) {
        self.section = section
        self.row = row
        super.init()
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { section.rows[row].id }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { section.cell(row) }
    override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { section.template.height }
    override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { section.template.estimatedHeight }
    override func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { section.template.indentation }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { section.template.isSelectable }
    override func canEditRow(at indexPath: TableIndexPath) -> Bool { section.template.isEditable }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { section.template.editingStyle }
    override func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? { section.template.deleteTitle }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { section.template.isMovable }
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { section.template.actions }
}

/// A row child that writes its fields itself, without making its cell.
final class UniformFieldWritingRow: UniformFixtureRow {
    override func writeFields(forRowAt indexPath: TableIndexPath, into fields: inout JSONFieldWriter) {
        for field in section.rows[row].fields {
            fields.write(field.name, field.json ?? .string(field.value))
        }
    }
}

/// A static section that declares its rows uniform when asked to.
final class UniformStaticSection: StaticSection {
    var declaresUniform = true
    override func hasUniformRows(inSection section: Int) -> Bool { declaresUniform }
}
