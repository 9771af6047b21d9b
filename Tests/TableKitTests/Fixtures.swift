import TableKit
import Testing

// Shared fixtures for the TableKit tests.

// MARK: - Recording delegate

/// A cascading delegate that implements every method: it logs each call with its arguments and
/// answers with a value no default has, so a test can tell "the child answered" from "default".
final class RecordingDelegate: CascadingBareTableDelegate {
    private(set) var calls: [String] = []

    private func log(_ name: String, _ arguments: Any...) {
        calls.append("\(name)(\(arguments.map { "\($0)" }.joined(separator: ", ")))")
    }

    override func numberOfRows(inSection section: Int) -> Int { log("numberOfRows", section); return 7 }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { log("cell", indexPath); return Recorded.cell }
    override func sectionID(forSection section: Int) -> SectionID { log("sectionID", section); return "recorded-section" }
    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { log("rowID", indexPath); return "recorded-row" }
    override func titleForHeader(inSection section: Int) -> String? { log("titleForHeader", section); return "Header" }
    override func titleForFooter(inSection section: Int) -> String? { log("titleForFooter", section); return "Footer" }
    override func canEditRow(at indexPath: TableIndexPath) -> Bool { log("canEditRow", indexPath); return true }
    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) {
        log("commit", editingStyle, indexPath, values)
    }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { log("canMoveRow", indexPath); return true }
    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) { log("moveRow", source, destination) }
    override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { log("heightForRow", indexPath); return .points(77) }
    override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? {
        log("estimatedHeightForRow", indexPath)
        return .points(66)
    }
    override func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { log("indentationLevelForRow", indexPath); return 3 }
    override func heightForHeader(inSection section: Int) -> TableHeight { log("heightForHeader", section); return .points(30) }
    override func heightForFooter(inSection section: Int) -> TableHeight { log("heightForFooter", section); return .points(20) }
    override func estimatedHeightForHeader(inSection section: Int) -> TableHeight? {
        log("estimatedHeightForHeader", section)
        return .points(31)
    }
    override func estimatedHeightForFooter(inSection section: Int) -> TableHeight? {
        log("estimatedHeightForFooter", section)
        return .points(21)
    }
    override func viewForHeader(inSection section: Int) -> TableCell? { log("viewForHeader", section); return Recorded.cell }
    override func viewForFooter(inSection section: Int) -> TableCell? { log("viewForFooter", section); return Recorded.cell }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { log("shouldHighlightRow", indexPath); return false }
    override func linkForRow(at indexPath: TableIndexPath) -> String? { log("linkForRow", indexPath); return "/recorded" }
    override func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? { log("willSelectRow", indexPath); return Recorded.path }
    override func didSelectRow(at indexPath: TableIndexPath) { log("didSelectRow", indexPath) }
    override func willDeselectRow(at indexPath: TableIndexPath) -> TableIndexPath? { log("willDeselectRow", indexPath); return Recorded.path }
    override func didDeselectRow(at indexPath: TableIndexPath) { log("didDeselectRow", indexPath) }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { log("editingStyleForRow", indexPath); return .delete }
    override func titleForDeleteConfirmationButtonForRow(at indexPath: TableIndexPath) -> String? {
        log("titleForDeleteConfirmationButtonForRow", indexPath)
        return "Remove"
    }
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { log("actionsForRow", indexPath); return [Recorded.action] }
    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) {
        log("performAction", name, indexPath, values)
    }
    override func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        log("targetIndexPathForMove", source, proposed)
        return Recorded.path
    }
    override func prefetchRows(at indexPaths: [TableIndexPath]) { log("prefetchRows", indexPaths) }
    override func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) { log("cancelPrefetchingForRows", indexPaths) }
}

/// A cascading delegate whose every acting method throws ``FixtureFailure``, as a row whose
/// store refuses writes.
final class FailingDelegate: CascadingBareTableDelegate {
    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        throw FixtureFailure()
    }
    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws { throw FixtureFailure() }
    override func didSelectRow(at indexPath: TableIndexPath) throws { throw FixtureFailure() }
    override func didDeselectRow(at indexPath: TableIndexPath) throws { throw FixtureFailure() }
    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        throw FixtureFailure()
    }
}

/// A cascading delegate that routes by a fixed scramble of the arguments instead of by
/// position, so routing tests can check that the bare class follows whatever its hooks name.
final class ScriptedRouter: CascadingBareTableDelegate {
    let salt: Int

    init(salt: Int, children: [any CascadingTableDelegate]) {
        self.salt = salt
        super.init(childDelegates: children)
    }

    override func childDelegate(forSection section: Int) -> (any CascadingTableDelegate)? { pick(section) }
    override func childDelegate(forRowAt indexPath: TableIndexPath) -> (any CascadingTableDelegate)? {
        pick(indexPath.section &* 7 &+ indexPath.row)
    }

    /// One of the children, or nil (one value in `count + 1`), chosen by `key` and the salt.
    private func pick(_ key: Int) -> (any CascadingTableDelegate)? {
        let choice = abs((key &+ salt) % (childDelegates.count + 1))
        return choice < childDelegates.count ? childDelegates[choice] : nil
    }
}

/// A random delegate tree for routing tests: ``ScriptedRouter`` nodes over ``RecordingDelegate`` leaves.
struct RoutingTree {
    let root: ScriptedRouter
    let leaves: [RecordingDelegate]

    /// Builds a tree from `script`, read one number per node: a leaf, or a router with up to
    /// three children, at most `depth` routers deep.
    init(script: [Int], depth: Int = 3) {
        var numbers = script.makeIterator()
        var leaves: [RecordingDelegate] = []
        func node(depth: Int) -> any CascadingTableDelegate {
            let number = numbers.next() ?? 0
            guard depth > 0, number % 5 != 0 else {
                let leaf = RecordingDelegate()
                leaves.append(leaf)
                return leaf
            }
            return ScriptedRouter(salt: number, children: (0..<(number % 4)).map { _ in node(depth: depth - 1) })
        }
        root = ScriptedRouter(salt: numbers.next() ?? 0, children: (0..<3).map { _ in node(depth: depth - 1) })
        self.leaves = leaves
    }

    /// Where a call made at `indexPath` should end, found by following the hooks from the root:
    /// nil when the root's hook names no child, a leaf when the hooks lead to one, and
    /// `.deadEnd` when a router below the root names none.
    func destination(of method: PropagationCase, at indexPath: TableIndexPath) -> Destination {
        var node: any CascadingTableDelegate = root
        var hops = 0
        while true {
            if let leaf = node as? RecordingDelegate { return .leaf(leaf) }
            let next = method.isSectionCall ? node.childDelegate(forSection: indexPath.section) : node.childDelegate(forRowAt: indexPath)
            guard let next else { return hops == 0 ? .nowhere : .deadEnd }
            node = next
            hops += 1
        }
    }

    /// Where a routed call ends.
    enum Destination {
        /// The root names no child: the root answers the default.
        case nowhere
        /// A router below the root names no child: that router answers the default.
        case deadEnd
        /// A recording leaf answers.
        case leaf(RecordingDelegate)
    }
}

/// The distinctive answers of ``RecordingDelegate``.
enum Recorded {
    static let cell = TableCell(.basic, CellContent(title: "recorded"))
    static let path = TableIndexPath(section: 9, row: 9)
    static let action = RowAction(name: "archive", title: "Archive")
}

// MARK: - Propagation cases

/// Which cascading class routes the call.
enum RoutingMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case root
    case section

    var testDescription: String { rawValue }

    func makeDelegate(children: [any CascadingTableDelegate]) -> CascadingBareTableDelegate {
        switch self {
        case .root: CascadingRootTableDelegate(childDelegates: children)
        case .section: CascadingSectionTableDelegate(childDelegates: children)
        }
    }

    /// The index path a row call uses to address child `index`.
    func indexPath(child index: Int) -> TableIndexPath {
        switch self {
        case .root: TableIndexPath(section: index, row: 1)
        case .section: TableIndexPath(section: 2, row: index)
        }
    }
}

/// One propagated method: how to call it at an index path, what the call looks like when it
/// reaches a child, and what comes back in each situation.
struct PropagationCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether a section addresses the method (only `indexPath.section` counts) rather than a row.
    let isSectionCall: Bool
    /// Calls the method on `delegate` at `indexPath`; returns the result as text.
    let invokeAt: @Sendable (_ delegate: any TableRoot, _ indexPath: TableIndexPath) -> String
    /// The call as logged by the child that receives the call made at `indexPath`.
    let expectedCallAt: @Sendable (_ indexPath: TableIndexPath) -> String
    /// The protocol default (also the out-of-range answer).
    let defaultResult: String
    /// The answer when the child implements nothing (differs only for estimated heights).
    let unimplementedResult: String
    /// The answer when the child is a ``RecordingDelegate``.
    let implementedResult: String

    var testDescription: String { name }

    /// Where a call addressing child `child` in `mode` is made.
    func address(child: Int, mode: RoutingMode) -> TableIndexPath {
        isSectionCall ? TableIndexPath(section: child, row: 0) : mode.indexPath(child: child)
    }

    /// Calls the method on `delegate` addressing `child` in `mode`; returns the result as text.
    func invoke(_ delegate: any TableRoot, _ child: Int, _ mode: RoutingMode) -> String {
        invokeAt(delegate, address(child: child, mode: mode))
    }

    /// The call as logged by the child addressed as `child` in `mode`.
    func expectedCall(_ child: Int, _ mode: RoutingMode) -> String {
        expectedCallAt(address(child: child, mode: mode))
    }

    /// A row method: addressed by index path.
    static func row<Result>(
        _ name: String, default defaultValue: Result, unimplemented: Result? = nil, implemented: Result,
        arguments: @escaping @Sendable (TableIndexPath) -> String = { "\($0)" },
        _ call: @escaping @Sendable (any TableRoot, TableIndexPath) throws -> Result
    ) -> PropagationCase {
        PropagationCase(
            name: name,
            isSectionCall: false,
            invokeAt: { delegate, indexPath in
                do {
                    return "\(try call(delegate, indexPath))"
                } catch {
                    return "threw \(error)"
                }
            },
            expectedCallAt: { "\(name)(\(arguments($0)))" },
            defaultResult: "\(defaultValue)",
            unimplementedResult: "\(unimplemented ?? defaultValue)",
            implementedResult: "\(implemented)"
        )
    }

    /// A section method: addressed by section index (routed by roots only).
    static func section<Result>(
        _ name: String, default defaultValue: Result, unimplemented: Result? = nil, implemented: Result,
        _ call: @escaping @Sendable (any TableRoot, Int) -> Result
    ) -> PropagationCase {
        PropagationCase(
            name: name,
            isSectionCall: true,
            invokeAt: { delegate, indexPath in "\(call(delegate, indexPath.section))" },
            expectedCallAt: { "\(name)(\($0.section))" },
            defaultResult: "\(defaultValue)",
            unimplementedResult: "\(unimplemented ?? defaultValue)",
            implementedResult: "\(implemented)"
        )
    }

    static let rowCases: [PropagationCase] = [
        .row("cell", default: TableCell.blank, implemented: Recorded.cell) { $0.cell(forRowAt: $1) },
        .row("rowID", default: RowID(Self.rowIDMarker), implemented: RowID("recorded-row")) { $0.rowID(forRowAt: $1) },
        .row("canEditRow", default: false, implemented: true) { $0.canEditRow(at: $1) },
        .row("commit", default: (), implemented: (), arguments: { "insert, \($0), [\"title\": \"x\"]" }) {
            try $0.commit(.insert, forRowAt: $1, values: ["title": "x"])
        },
        .row("canMoveRow", default: false, implemented: true) { $0.canMoveRow(at: $1) },
        .row("moveRow", default: (), implemented: (), arguments: { "\($0), [4, 4]" }) {
            try $0.moveRow(from: $1, to: TableIndexPath(section: 4, row: 4))
        },
        .row("heightForRow", default: TableHeight.automatic, implemented: .points(77)) { $0.heightForRow(at: $1) },
        .row("estimatedHeightForRow", default: TableHeight?.none, unimplemented: .automatic, implemented: .points(66)) {
            $0.estimatedHeightForRow(at: $1)
        },
        .row("indentationLevelForRow", default: 0, implemented: 3) { $0.indentationLevelForRow(at: $1) },
        .row("shouldHighlightRow", default: true, implemented: false) { $0.shouldHighlightRow(at: $1) },
        .row("linkForRow", default: String?.none, implemented: "/recorded") { $0.linkForRow(at: $1) },
        .row("didSelectRow", default: (), implemented: ()) { try $0.didSelectRow(at: $1) },
        .row("didDeselectRow", default: (), implemented: ()) { try $0.didDeselectRow(at: $1) },
        .row("editingStyleForRow", default: EditingStyle.none, implemented: .delete) { $0.editingStyleForRow(at: $1) },
        .row("titleForDeleteConfirmationButtonForRow", default: String?.none, implemented: "Remove") {
            $0.titleForDeleteConfirmationButtonForRow(at: $1)
        },
        .row("actionsForRow", default: [RowAction](), implemented: [Recorded.action]) { $0.actionsForRow(at: $1) },
        .row("performAction", default: (), implemented: (), arguments: { "archive, \($0), [\"note\": \"x\"]" }) {
            try $0.performAction(named: "archive", forRowAt: $1, values: ["note": "x"])
        },
        .row("prefetchRows", default: (), implemented: (), arguments: { "[\($0)]" }) { $0.prefetchRows(at: [$1]) },
        .row("cancelPrefetchingForRows", default: (), implemented: (), arguments: { "[\($0)]" }) {
            $0.cancelPrefetchingForRows(at: [$1])
        },
    ]

    /// Methods whose default depends on the argument: the expected default is computed per call.
    static let argumentEchoingRowCases: [PropagationCase] = [
        echoing("willSelectRow") { $0.willSelectRow(at: $1) },
        echoing("willDeselectRow") { $0.willDeselectRow(at: $1) },
        PropagationCase(
            name: "targetIndexPathForMove",
            isSectionCall: false,
            invokeAt: { delegate, source in "\(delegate.targetIndexPathForMove(from: source, toProposed: TableIndexPath(section: 4, row: 4)))" },
            expectedCallAt: { "targetIndexPathForMove(\($0), [4, 4])" },
            defaultResult: "\(TableIndexPath(section: 4, row: 4))",
            unimplementedResult: "\(TableIndexPath(section: 4, row: 4))",
            implementedResult: "\(Recorded.path)"
        ),
    ]

    static let sectionCases: [PropagationCase] = [
        .section("numberOfRows", default: 0, implemented: 7) { $0.numberOfRows(inSection: $1) },
        .section("sectionID", default: SectionID("section-0"), implemented: SectionID("recorded-section")) { $0.sectionID(forSection: $1) },
        .section("titleForHeader", default: String?.none, implemented: "Header") { $0.titleForHeader(inSection: $1) },
        .section("titleForFooter", default: String?.none, implemented: "Footer") { $0.titleForFooter(inSection: $1) },
        .section("heightForHeader", default: TableHeight.points(0), implemented: .points(30)) { $0.heightForHeader(inSection: $1) },
        .section("heightForFooter", default: TableHeight.points(0), implemented: .points(20)) { $0.heightForFooter(inSection: $1) },
        .section("estimatedHeightForHeader", default: TableHeight?.none, unimplemented: .points(0), implemented: .points(31)) {
            $0.estimatedHeightForHeader(inSection: $1)
        },
        .section("estimatedHeightForFooter", default: TableHeight?.none, unimplemented: .points(0), implemented: .points(21)) {
            $0.estimatedHeightForFooter(inSection: $1)
        },
        .section("viewForHeader", default: TableCell?.none, implemented: Recorded.cell) { $0.viewForHeader(inSection: $1) },
        .section("viewForFooter", default: TableCell?.none, implemented: Recorded.cell) { $0.viewForFooter(inSection: $1) },
    ]

    private static func echoing(
        _ name: String, _ call: @escaping @Sendable (any TableRoot, TableIndexPath) -> TableIndexPath?
    ) -> PropagationCase {
        PropagationCase(
            name: name,
            isSectionCall: false,
            invokeAt: { delegate, indexPath in "\(String(describing: call(delegate, indexPath)))" },
            expectedCallAt: { "\(name)(\($0))" },
            defaultResult: "echo",
            unimplementedResult: "echo",
            implementedResult: "\(String(describing: Optional(Recorded.path)))"
        )
    }

    /// The row methods that act, and so may throw.
    static let actingNames: Set<String> = ["commit", "moveRow", "didSelectRow", "didDeselectRow", "performAction"]

    /// Stands for the index-derived default row identifier, `row-{section}-{row}`.
    static let rowIDMarker = "row-default"

    /// Every propagated method.
    static let allCases = rowCases + argumentEchoingRowCases + sectionCases

    /// The expected result text, resolving the markers of defaults derived from the arguments.
    func resolve(_ result: String, child: Int, mode: RoutingMode) -> String {
        resolve(result, at: address(child: child, mode: mode))
    }

    /// The expected result text of a call made at `indexPath`, resolving the markers of defaults
    /// derived from the arguments.
    func resolve(_ result: String, at indexPath: TableIndexPath) -> String {
        switch result {
        case "echo": "\(String(describing: Optional(indexPath)))"
        case Self.rowIDMarker: "row-\(indexPath.section)-\(indexPath.row)"
        case "section-0": "section-\(indexPath.section)"
        default: result
        }
    }
}

// MARK: - A data-driven table

/// A row of the fixture table: an identifier and a title that tests change.
struct FixtureRow: Equatable {
    var id: String
    var title: String
}

/// A root delegate over plain arrays that tests mutate between `beginUpdates` and `endUpdates`,
/// with hooks to observe and steer selection and editing.
final class FixtureDataSource: CascadingBareTableDelegate {
    var sections: [(id: String, rows: [FixtureRow])]
    /// Header titles that differ from the default, the section id in capitals.
    var headers: [String: String] = [:]
    var editable = false
    var movable = false
    var actions: [RowAction] = []
    var highlight = true
    var selectionRedirect: ((TableIndexPath) -> TableIndexPath?)?
    var moveRedirect: ((TableIndexPath, TableIndexPath) -> TableIndexPath)?
    /// The rows that are links, by row id: what ``linkForRow(at:)`` answers.
    var links: [String: String] = [:]
    /// Runs at the start of `didSelectRow` and `performAction`: to call the table context as a
    /// delegate would.
    var whileActing: ((FixtureDataSource) -> Void)?
    /// When set, every acting method throws it before changing anything, as a failed store write would.
    var failure: FixtureFailure?
    /// Runs inside an acting method before it throws ``failure``: to report updates first, or
    /// to open a batch it never closes.
    var beforeFailing: ((FixtureDataSource) -> Void)?
    private(set) var events: [String] = []

    init(_ sections: [(String, [String])]) {
        self.sections = Self.sections(sections)
        super.init()
    }

    /// Replaces every section with rows titled as the initializer titles them, so rows that
    /// keep their id keep their content.
    func replaceSections(_ sections: [(String, [String])]) {
        self.sections = Self.sections(sections)
    }

    private static func sections(_ sections: [(String, [String])]) -> [(id: String, rows: [FixtureRow])] {
        sections.map { (id: $0.0, rows: $0.1.map { FixtureRow(id: $0, title: $0.uppercased()) }) }
    }

    override func numberOfSections() -> Int { sections.count }
    override func numberOfRows(inSection section: Int) -> Int { sections[section].rows.count }
    override func sectionID(forSection section: Int) -> SectionID { SectionID(sections[section].id) }
    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID(sections[indexPath.section].rows[indexPath.row].id) }
    override func titleForHeader(inSection section: Int) -> String? {
        headers[sections[section].id] ?? sections[section].id.uppercased()
    }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        TableCell(.basic, CellContent(title: sections[indexPath.section].rows[indexPath.row].title))
    }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { highlight }
    override func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        guard let selectionRedirect else { return indexPath }
        return selectionRedirect(indexPath)
    }
    override func linkForRow(at indexPath: TableIndexPath) -> String? { links[sections[indexPath.section].rows[indexPath.row].id] }
    override func didSelectRow(at indexPath: TableIndexPath) throws {
        whileActing?(self)
        try failIfAsked()
        events.append("didSelect \(indexPath)")
    }
    override func didDeselectRow(at indexPath: TableIndexPath) throws {
        try failIfAsked()
        events.append("didDeselect \(indexPath)")
    }
    override func canEditRow(at indexPath: TableIndexPath) -> Bool { editable }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .delete }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { movable }
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { actions }
    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        whileActing?(self)
        try failIfAsked()
        events.append("action \(name) \(indexPath)")
    }
    override func targetIndexPathForMove(from source: TableIndexPath, toProposed proposed: TableIndexPath) -> TableIndexPath {
        moveRedirect?(source, proposed) ?? proposed
    }
    override func prefetchRows(at indexPaths: [TableIndexPath]) { events.append("prefetch \(indexPaths)") }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try failIfAsked()
        events.append("commit \(editingStyle) \(indexPath) \(values)")
        switch editingStyle {
        case .delete:
            sections[indexPath.section].rows.remove(at: indexPath.row)
            tableContext?.deleteRows(at: [indexPath])
        case .insert:
            let title = values["title"] ?? ""
            sections[indexPath.section].rows.insert(FixtureRow(id: title.lowercased(), title: title), at: indexPath.row)
            tableContext?.insertRows(at: [indexPath])
        case .none:
            break
        }
    }

    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        try failIfAsked()
        events.append("move \(source) \(destination)")
        let row = sections[source.section].rows.remove(at: source.row)
        sections[destination.section].rows.insert(row, at: destination.row)
    }

    private func failIfAsked() throws {
        guard let failure else { return }
        beforeFailing?(self)
        throw failure
    }

    /// The row identifiers of a section, for assertions.
    func ids(_ section: Int) -> [String] { sections[section].rows.map(\.id) }
}

/// The error a failing ``FixtureDataSource`` throws, standing for a store write that failed.
struct FixtureFailure: Error, Equatable {
    var reason = "the store is locked"
}

/// A table over a ``FixtureDataSource`` that records every published changeset.
final class TableHarness {
    let source: FixtureDataSource
    let table: TableAdapter
    private(set) var published: [Changeset] = []

    /// - Parameter configure: sets up the data source before the table first reads it.
    init(_ sections: [(String, [String])], configure: (FixtureDataSource) -> Void = { _ in }) {
        source = FixtureDataSource(sections)
        configure(source)
        table = TableAdapter(root: source)
        table.onChange = { [unowned self] in self.published.append($0) }
    }

    /// The operations of the only changeset published so far.
    var operations: [Changeset.Operation] { published.last?.operations ?? [] }

    /// The row identifiers of the table's committed state, section by section.
    var committedRows: [[RowID]] {
        (0..<table.numberOfSections).map { section in
            (0..<table.numberOfRows(inSection: section)).compactMap { table.rowID(at: TableIndexPath(section: section, row: $0)) }
        }
    }
}

// MARK: - Rendering helpers

extension TableRenderer {
    /// Renders a whole page to a String.
    func page(_ format: RenderFormat) -> String {
        var out = OutputBuffer()
        renderPage(as: format, into: &out)
        return out.string
    }

    /// Renders one row to a String.
    func row(_ id: RowID, _ format: RenderFormat) throws -> String {
        var out = OutputBuffer()
        try renderRow(id, as: format, into: &out)
        return out.string
    }
}

/// A one-row table showing `cell`, to render cells in isolation.
func singleCellTable(_ cell: TableCell, id: String = "r1") -> TableAdapter {
    let source = FixtureCellSource(cell: cell, id: id)
    return TableAdapter(root: source)
}

/// One section "s" with one row showing a given cell.
final class FixtureCellSource: CascadingBareTableDelegate {
    let fixtureCell: TableCell
    let id: String

    init(cell: TableCell, id: String) {
        self.fixtureCell = cell
        self.id = id
        super.init()
    }

    override func numberOfRows(inSection section: Int) -> Int { 1 }
    override func sectionID(forSection section: Int) -> SectionID { "s" }
    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID(id) }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { fixtureCell }
}

// MARK: - A page with headers, footers and editing

/// A section of the golden page: header and footer titles, an optional header view and
/// heights, over rows whose content and affordances the tests choose.
final class GoldenSection: StaticSection {
    init(id: SectionID, header: String?, footer: String?, headerView: TableCell? = nil, rows: [GoldenRow]) {
        super.init(id: id, header: header, footer: footer, headerView: headerView, rows: rows)
    }

    override func heightForHeader(inSection section: Int) -> TableHeight { header == nil ? .points(0) : .points(28) }
}

/// A row of the golden page.
final class GoldenRow: CascadingBareTableDelegate {
    let id: RowID
    var content: CellContent
    var kind: CellKind
    var height: TableHeight = .automatic
    var deletable = false
    var movable = false
    var actions: [RowAction] = []
    var indentation = 0

    init(_ id: RowID, _ kind: CellKind = .basic, _ content: CellContent) {
        self.id = id
        self.kind = kind
        self.content = content
        super.init()
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { id }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(kind, content) }
    override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { height }
    override func canEditRow(at indexPath: TableIndexPath) -> Bool { deletable }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { deletable ? .delete : .none }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { movable }
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { actions }
    override func indentationLevelForRow(at indexPath: TableIndexPath) -> Int { indentation }
}

/// Two sections: "open" (header, footer, an editable row and a plain one) and "done"
/// (a header view, no footer, one row).
func goldenPage() -> (TableAdapter, [GoldenRow]) {
    let milk = GoldenRow("milk", .value, CellContent(title: "Milk", detail: "2 l"))
    milk.height = .points(44)
    milk.deletable = true
    milk.movable = true
    milk.actions = [RowAction(name: "archive", title: "Archive"), RowAction(name: "burn", title: "Burn", style: .destructive)]
    let eggs = GoldenRow("eggs", .basic, CellContent(title: "Eggs"))
    eggs.indentation = 1
    let bread = GoldenRow("bread", .subtitle, CellContent(title: "Bread", subtitle: "rye"))
    let root = CascadingRootTableDelegate(childDelegates: [
        GoldenSection(id: "open", header: "Open", footer: "2 items", rows: [milk, eggs]),
        GoldenSection(id: "done", header: nil, footer: nil, headerView: TableCell(.basic, CellContent(title: "Done")), rows: [bread]),
    ])
    let table = TableAdapter(root: root)
    table.title = "Groceries"
    return (table, [milk, eggs, bread])
}

/// A root whose section index lists each section's header title.
final class GoldenSectionIndexRoot: CascadingRootTableDelegate {
    override func sectionIndexTitles() -> [String]? {
        (0..<childDelegates.count).compactMap { titleForHeader(inSection: $0) }
    }
}

/// A minimal identifiable model.
struct Item: Identifiable, Equatable {
    let id: Int
}

// MARK: - A client's copy of the table

/// What a client holds: section ids with their row ids. Applying a changeset checks what a
/// browser relies on: operations come in the documented phases, every placement names a
/// neighbour already in place, and no id is ever in the document twice.
struct ClientDocument: Equatable, CustomStringConvertible {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    var sections: [Section]

    struct Section: Equatable {
        var id: String
        var rows: [String]
    }

    init(_ sections: [(id: String, rows: [FixtureRow])]) {
        self.sections = sections.map { Section(id: $0.id, rows: $0.rows.map(\.id)) }
    }

    var description: String {
        sections.map { "\($0.id):\($0.rows.joined(separator: ","))" }.joined(separator: " | ")
    }

    /// Applies `changeset`; sections inserted or replaced arrive with their rows as `server` has them.
    /// - Returns: the rows received afresh (inserted, or inside a section sent whole) and the rows replaced.
    mutating func apply(_ changeset: Changeset, server: ClientDocument) throws -> (fresh: Set<String>, replaced: Set<String>) {
        var fresh = Set<String>()
        var replaced = Set<String>()
        var phase = 0
        func enter(_ next: Int, _ operation: Changeset.Operation) throws {
            guard next >= phase else { throw Failure(description: "\(operation) comes after a later phase") }
            phase = next
        }
        for operation in changeset.operations {
            switch operation {
            case .reset:
                self = server
                return (Set(server.sections.flatMap(\.rows)), [])
            case .deleteSection(let id):
                try enter(0, operation)
                sections.remove(at: try sectionIndex(id.rawValue))
            case .deleteRow(let id):
                try enter(0, operation)
                let path = try rowPath(id.rawValue)
                sections[path.section].rows.remove(at: path.row)
            case .insertSection(let id, let placement):
                try enter(1, operation)
                try absent(id.rawValue)
                let rows = try server.sections[server.sectionIndex(id.rawValue)].rows
                try rows.forEach(absent)
                sections.insert(Section(id: id.rawValue, rows: rows), at: try position(placement, in: sections.map(\.id)))
                fresh.formUnion(rows)
            case .moveSection(let id, let placement):
                try enter(1, operation)
                let section = sections.remove(at: try sectionIndex(id.rawValue))
                sections.insert(section, at: try position(placement, in: sections.map(\.id)))
            case .insertRow(let id, let section, let placement):
                try enter(1, operation)
                try absent(id.rawValue)
                let index = try sectionIndex(section.rawValue)
                sections[index].rows.insert(id.rawValue, at: try position(placement, in: sections[index].rows))
                fresh.insert(id.rawValue)
            case .moveRow(let id, let section, let placement):
                try enter(1, operation)
                let path = try rowPath(id.rawValue)
                sections[path.section].rows.remove(at: path.row)
                let index = try sectionIndex(section.rawValue)
                sections[index].rows.insert(id.rawValue, at: try position(placement, in: sections[index].rows))
            case .replaceSection(let id):
                try enter(2, operation)
                let index = try sectionIndex(id.rawValue)
                let rows = try server.sections[server.sectionIndex(id.rawValue)].rows
                sections[index].rows = []
                try rows.forEach(absent)
                sections[index].rows = rows
                fresh.formUnion(rows)
            case .replaceRow(let id):
                try enter(2, operation)
                _ = try rowPath(id.rawValue)
                replaced.insert(id.rawValue)
            case .updateSectionCounts(let id):
                try enter(3, operation)
                _ = try sectionIndex(id.rawValue)
            case .replaceHeader:
                try enter(3, operation)
            }
        }
        return (fresh, replaced)
    }

    private func sectionIndex(_ id: String) throws -> Int {
        guard let index = sections.firstIndex(where: { $0.id == id }) else { throw Failure(description: "no section \(id)") }
        return index
    }

    private func rowPath(_ id: String) throws -> TableIndexPath {
        for (section, content) in sections.enumerated() {
            if let row = content.rows.firstIndex(of: id) { return TableIndexPath(section: section, row: row) }
        }
        throw Failure(description: "no row \(id)")
    }

    private func absent(_ id: String) throws {
        if sections.contains(where: { $0.id == id || $0.rows.contains(id) }) {
            throw Failure(description: "\(id) is already in the document")
        }
    }

    private func position<ID: CustomStringConvertible>(_ placement: Placement<ID>, in ids: [String]) throws -> Int {
        switch placement {
        case .start: return 0
        case .end: return ids.count
        case .after(let neighbour), .before(let neighbour):
            guard let index = ids.firstIndex(of: neighbour.description) else {
                throw Failure(description: "neighbour \(neighbour) is not in place")
            }
            if case .after = placement { return index + 1 }
            return index
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing random case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

// MARK: - Rows changed from background tasks

/// A row delegate whose text background tasks change through the table's updater.
final class NoteRow: CascadingBareTableDelegate {
    let id: RowID
    var text: String

    init(id: RowID, text: String) {
        self.id = id
        self.text = text
        super.init()
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { id }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.basic, CellContent(title: text)) }
}

/// A table of one section "notes" with note rows `n0`…, recording what it publishes.
final class NoteTable {
    let table: TableAdapter
    let rows: [NoteRow]
    private(set) var published: [Changeset] = []

    init(rows count: Int = 3) {
        rows = (0..<count).map { NoteRow(id: RowID("n\($0)"), text: "note \($0)") }
        table = TableAdapter(root: CascadingRootTableDelegate(childDelegates: [StaticSection(id: "notes", rows: rows)]))
        table.onChange = { [unowned self] in self.published.append($0) }
    }
}

// MARK: Window data source

/// A root that holds the first rows of each section and counts the rest, as a database page
/// does: `after` is what ``TableDataSource/numberOfRowsAfterWindow(inSection:)`` answers.
final class WindowFixtureRoot: TableRoot {
    struct Section {
        var id: String
        var rows: [String]
        var after: Int
    }

    var sections: [Section]
    /// The table's header view; its title stands for a row count a page would show.
    var header: TableCell?

    init(_ sections: [Section], header: TableCell? = nil) {
        self.sections = sections
        self.header = header
    }

    func numberOfSections() -> Int { sections.count }
    func numberOfRows(inSection section: Int) -> Int { sections[section].rows.count }
    func sectionID(forSection section: Int) -> SectionID { SectionID(sections[section].id) }
    func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID(sections[indexPath.section].rows[indexPath.row]) }
    func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        TableCell(.basic, CellContent(title: sections[indexPath.section].rows[indexPath.row]))
    }
    func headerViewForTable() -> TableCell? { header }
    func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { .points(40) }
    func numberOfRowsAfterWindow(inSection section: Int) -> Int? {
        sections.indices.contains(section) ? sections[section].after : 0
    }

    /// A header view that shows `count` rows.
    static func header(count: Int) -> TableCell {
        TableCell(.basic, CellContent(title: "\(count) rows"))
    }
}
