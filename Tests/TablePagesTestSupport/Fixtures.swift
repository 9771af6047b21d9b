import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import TableKit
import Testing
@testable import TablePages

/// A row of the test page.
struct TestItem: Identifiable, Equatable {
    let id: String
    var title: String
    var isDone = false
}

/// The test page's delegate: select toggles an item (the row named `locked` vetoes selection),
/// items can be deleted, moved and added.
class TestItems: ListDataSource<TestItem> {
    init(_ items: [TestItem]) {
        super.init(models: items, sectionID: "items", title: "Items") { item, _ in
            TableCell(.subtitle, CellContent(title: item.title, subtitle: item.isDone ? "done" : "open"))
        }
    }

    override func willSelectRow(at indexPath: TableIndexPath) -> TableIndexPath? {
        models[indexPath.row].id == "locked" ? nil : indexPath
    }

    override func didSelectRow(at indexPath: TableIndexPath) throws {
        models[indexPath.row].isDone.toggle()
        tableContext?.reloadRows(at: [indexPath])
    }

    override func canEditRow(at indexPath: TableIndexPath) -> Bool { models[indexPath.row].id != "locked" }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .delete }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { true }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        if editingStyle == .delete {
            models.remove(at: indexPath.row)
            tableContext?.deleteRows(at: [indexPath])
        } else if editingStyle == .insert, let title = values["title"] {
            models.append(TestItem(id: "new-\(models.count)", title: title))
            tableContext?.insertRows(at: [TableIndexPath(section: 0, row: models.count - 1)])
        }
    }

    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        models.insert(models.remove(at: source.row), at: destination.row)
    }
}

/// The error a ``FaultyItems`` page's writes fail with, switchable while the server runs, as a
/// store that is locked for a while and then released.
final class TestStoreFault: Sendable {
    private let error = Mutex<(any Error)?>(nil)

    /// Makes every write fail with `error`; nil lets them succeed again.
    func set(_ error: (any Error)?) {
        self.error.withLock { $0 = error }
    }

    /// Throws the error writes fail with now, if any.
    func check() throws {
        if let error = error.withLock({ $0 }) { throw error }
    }
}

/// A readiness probe that answers, or fails with a message, as a test switches it while the
/// server runs.
final class TestReadinessProbe: ReadinessProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let failure = Mutex<String?>(nil)

    /// Makes the probe fail with `message` from now on; nil lets it answer again.
    func fail(_ message: String?) {
        failure.withLock { $0 = message }
    }

    func probe() throws {
        if let message = failure.withLock({ $0 }) { throw Failure(description: message) }
    }
}

/// The test items over a store that can fail: every acting method (select, delete, move, insert,
/// and "rename", which this page adds) asks the fault first and changes nothing when it throws.
final class FaultyItems: TestItems {
    private let fault: TestStoreFault

    init(_ items: [TestItem], fault: TestStoreFault) {
        self.fault = fault
        super.init(items)
    }

    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        [RowAction(name: "rename", title: "Rename", field: .init(name: "title", placeholder: "Title", value: models[indexPath.row].title))]
    }

    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try fault.check()
        models[indexPath.row].title = values["title"] ?? ""
        tableContext?.reloadRows(at: [indexPath])
    }

    override func didSelectRow(at indexPath: TableIndexPath) throws {
        try fault.check()
        try super.didSelectRow(at: indexPath)
    }

    override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        try fault.check()
        try super.commit(editingStyle, forRowAt: indexPath, values: values)
    }

    override func moveRow(from source: TableIndexPath, to destination: TableIndexPath) throws {
        try fault.check()
        try super.moveRow(from: source, to: destination)
    }
}

enum TestPages {
    /// `items`: five items, plus `locked`; `?size=big` makes every title `bigTitleLength` bytes.
    static let bigTitleLength = 16_000

    static func registry() -> PageRegistry {
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "items", title: "Items", variants: ["size": ["small", "big"]]) { variant in
            let padding = variant["size"] == "big" ? String(repeating: "x", count: bigTitleLength) : ""
            var items = (1...5).map { TestItem(id: "item-\($0)", title: "Item \($0)" + padding) }
            items.append(TestItem(id: "locked", title: "Locked"))
            return TestItems(items)
        })
        return registry
    }

    /// `faulty`: the five items and `locked` over a store whose writes fail while `fault` says so.
    static func faultyRegistry(fault: TestStoreFault) -> PageRegistry {
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "faulty", title: "Faulty") { _ in
            var items = (1...5).map { TestItem(id: "item-\($0)", title: "Item \($0)") }
            items.append(TestItem(id: "locked", title: "Locked"))
            return FaultyItems(items, fault: fault)
        })
        return registry
    }
}

/// Starts the real server with the test pages on an ephemeral port; its public files are the
/// built-in ones, as a library user's are, unless `publicDirectory` overrides them. Anonymous
/// clients may write unless `access` says otherwise: the tests of access control pass their own.
func withSite<T>(
    pages: PageRegistry = TestPages.registry(), title: String = "TablePages", publicDirectory: String? = nil, settings: LiveSettings = LiveSettings(),
    readinessProbes: [any ReadinessProbe] = [], logger: Logger? = nil, metrics: ServiceMetrics? = nil,
    access: AccessSettings = AccessSettings(anonymousWrites: true), _ body: (Server, Site) async throws -> T
) async throws -> T {
    var logger = logger ?? Logger(label: "TablePagesTests")
    if logger.logLevel < .warning { logger.logLevel = .warning }
    let site = Site(pages: pages, title: title, publicDirectory: publicDirectory, settings: settings, readinessProbes: readinessProbes, logger: logger, metrics: metrics, access: access)
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.threads = 2
    configuration.observer = metrics?.serverObserver
    let server = Server(configuration: configuration, responder: site.router, errorPage: site.router.errorPage, logger: logger)
    try server.start()
    do {
        let result = try await body(server, site)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Waits until `condition` holds, polling, for at most `timeout`.
func eventually(timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}

/// The complete SSE events in `text` (blocks ending in a blank line), excluding comments and `retry:`.
func events(in text: String) -> [String] {
    text.split(separator: "\n\n").filter { $0.contains("event: ") }.map { $0 + "\n\n" }
}

/// The `id:` of an event block.
func eventID(_ event: String) -> Int? {
    event.split(separator: "\n").first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) }
}

/// The page's current version, read from its JSON.
func pageVersion(_ connection: TestConnection, _ path: String = "/pages/items.json") async throws -> Int {
    let text = try await connection.request("GET", path).text
    guard let range = text.firstRange(of: #""version":"#) else { return -1 }
    return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? -1
}

/// Pages and variants for the tests of the live bounds (render cache, variants, patch logs).
enum LiveBoundsFixtures {
    /// A variant of page `page` named by its one parameter.
    static func variant(_ name: String, page: String = "p") -> PageVariant {
        PageVariant(page: page, parameters: ["v": name], defaults: [:])
    }

    /// Pages named `names`, each with open variants: every `?n=` is a table of its own, of `rows`
    /// rows (default 10) whose titles are `width` bytes (default 100).
    static func registry(pages names: [String] = ["open"]) -> PageRegistry {
        var registry = PageRegistry()
        for name in names {
            registry.register(PageDefinition(name: name, title: name, resolveVariant: { query in
                ["n": query["n"] ?? "0", "rows": query["rows"] ?? "10", "width": query["width"] ?? "100"]
            }) { variant in
                let rows = Int(variant["rows"] ?? "") ?? 10
                let width = Int(variant["width"] ?? "") ?? 100
                let items = (0..<rows).map { TestItem(id: "row-\($0)", title: String(repeating: "x", count: width)) }
                return TestItems(items)
            })
        }
        return registry
    }

    /// The live hosts of `registry` with `settings`.
    static func hosts(_ registry: PageRegistry, settings: LiveSettings) -> PageHosts {
        var logger = Logger(label: "LiveBoundsTests")
        logger.logLevel = .critical
        let pages = SitePages()
        pages.start(with: registry)
        return PageHosts(pages: pages, settings: settings, logger: logger)
    }

    /// The host of `page?query` in `hosts`, made if needed.
    static func host(_ hosts: PageHosts, _ query: [String: String], page: String = "open") async throws -> PageHost {
        let definition = try #require(hosts.registry.page(named: page))
        return try await hosts.host(for: try definition.variant(for: query).get(), definition: definition)
    }

    /// A patch of `size` bytes in each wire format.
    static func patch(_ id: Int, size: Int) -> PatchLog.Entry {
        PatchLog.Entry(id: id, withHTML: Array(repeating: UInt8(ascii: "h"), count: size), withoutHTML: Array(repeating: UInt8(ascii: "j"), count: size))
    }
}

/// Pages whose delegates block, as a page reading a slow database does.
enum BlockingPages {
    /// `slow`: its factory blocks its thread for `?ms=` milliseconds; `?n=` makes distinct variants.
    /// The title of its one row says on which database lane the factory ran.
    /// With `?together=N`, the factory instead waits (up to 2 s) until N factories are running at
    /// once, and the row's title says whether they were.
    static func slow(builds: BuildCounter = BuildCounter()) -> PageDefinition {
        PageDefinition(
            name: "slow", title: "Slow",
            resolveVariant: { query throws(PageDefinition.VariantError) in
                ["ms": query["ms"] ?? "0", "n": query["n"] ?? "0", "together": query["together"] ?? "0"]
            }
        ) { variant in
            let running = builds.increment()
            if let together = variant["together"].flatMap({ Int($0) }), together > 0 {
                var waited = 0
                while builds.running < together, waited < 2000 {
                    usleep(10_000)
                    waited += 10
                }
                let root = TestItems([TestItem(id: "a", title: builds.running >= together ? "together" : "alone")])
                usleep(200_000)
                running.finish()
                return root
            }
            defer { running.finish() }
            usleep(UInt32(variant["ms"].flatMap { UInt32($0) } ?? 0) * 1000)
            return TestItems([TestItem(id: "a", title: DatabaseLane.currentIndex.map { "lane \($0)" } ?? "off the lanes")])
        }
    }

    /// `race`: its factory reads the titles, then the titles change and the feed announces it
    /// before the factory returns — a commit landing between a host's first read and its observation.
    static func race(titles: SharedTitles, feed: ChangeFeed) -> PageDefinition {
        var definition = PageDefinition(name: "race", title: "Race") { _ in
            let root = ReloadableTitles(titles)
            titles.set(["changed while the page was being made"])
            feed.notify()
            return root
        }
        definition.changes = feed
        return definition
    }

    static func registry(_ definitions: PageDefinition...) -> PageRegistry {
        var registry = PageRegistry()
        for definition in definitions { registry.register(definition) }
        return registry
    }
}

/// Counts the tables a page's factory made, and the factories running now.
final class BuildCounter: Sendable {
    private let started = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)

    /// One factory run; call `finish()` when it returns.
    struct Run {
        let counter: BuildCounter
        func finish() { counter.finished.add(1, ordering: .relaxed) }
    }

    func increment() -> Run {
        started.add(1, ordering: .relaxed)
        return Run(counter: self)
    }
    var count: Int { started.load(ordering: .relaxed) }
    var running: Int { started.load(ordering: .relaxed) - finished.load(ordering: .relaxed) }
}

/// Titles that live outside the page, like rows in a database; they note the lanes they were read on.
final class SharedTitles: Sendable {
    private let titles: Mutex<[String]>
    private let lanes = Mutex<[Int?]>([])
    init(_ titles: [String]) { self.titles = Mutex(titles) }
    var current: [String] {
        lanes.withLock { $0.append(DatabaseLane.currentIndex) }
        return titles.withLock { $0 }
    }
    func set(_ new: [String]) { titles.withLock { $0 = new } }
    /// The lane of each read, nil for a read off the lanes.
    var readLanes: [Int?] { lanes.withLock { $0 } }
}

/// A list of ``SharedTitles`` re-read when its page's feed announces a change.
final class ReloadableTitles: ListDataSource<TestItem>, RereadingSource {
    private let source: SharedTitles

    init(_ source: SharedTitles) {
        self.source = source
        super.init(models: Self.items(source.current), sectionID: "titles", title: "Titles") { item, _ in
            TableCell(.basic, CellContent(title: item.title))
        }
    }

    func readFromSource() -> Int? {
        models = Self.items(source.current)
        return nil
    }

    private static func items(_ titles: [String]) -> [TestItem] {
        titles.enumerated().map { TestItem(id: "t\($0.offset)", title: $0.element) }
    }
}

/// Where a page's root puts its table's updater when prepared, for tests to hand to background tasks.
final class UpdaterDrop: Sendable {
    private let updater = Mutex<TableUpdater?>(nil)
    func put(_ updater: TableUpdater) { self.updater.withLock { $0 = updater } }
    var current: TableUpdater? { updater.withLock { $0 } }
}

/// A row whose title and counter change from background tasks; its cell shows both: "Row 2 #5".
final class CounterRow: CascadingBareTableDelegate {
    let id: RowID
    var title: String
    var count = 0

    init(id: RowID, title: String) {
        self.id = id
        self.title = title
        super.init()
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { id }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        TableCell(.basic, CellContent(title: "\(title) #\(count)"))
    }
}

/// `counters`: a section of ``CounterRow``s `row-0`…; the root hands its updater to `drop`.
final class CounterRoot: CascadingRootTableDelegate {
    private let drop: UpdaterDrop

    init(rows: Int, drop: UpdaterDrop) {
        self.drop = drop
        let rows = (0..<rows).map { CounterRow(id: RowID("row-\($0)"), title: "Row \($0)") }
        super.init(childDelegates: [StaticSection(id: "counters", header: "Counters", rows: rows)])
    }

    override func prepare(table: any TableContext) {
        super.prepare(table: table)
        drop.put(table.updater)
    }
}

/// A section that reads ``SharedTitles`` every time it answers: its root is not reloadable,
/// yet a change feed must still bring its page up to date.
final class SharedTitlesSection: CascadingBareTableDelegate {
    private let source: SharedTitles

    init(_ source: SharedTitles) {
        self.source = source
        super.init()
    }

    override func sectionID(forSection section: Int) -> SectionID { "titles" }
    override func numberOfRows(inSection section: Int) -> Int { source.current.count }
    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID("t\(indexPath.row)") }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        let titles = source.current
        return TableCell(.basic, CellContent(title: titles.indices.contains(indexPath.row) ? titles[indexPath.row] : ""))
    }
}

/// Pages whose rows change from outside the host: through the updater, or a change feed.
enum BackgroundPages {
    /// `counters`: `rows` counter rows; the table's updater lands in `drop`.
    static func counters(rows: Int = 3, drop: UpdaterDrop) -> PageDefinition {
        PageDefinition(name: "counters", title: "Counters") { _ in CounterRoot(rows: rows, drop: drop) }
    }

    /// `shared`: rows read from `titles` as they are asked for, under a root that is not reloadable.
    static func shared(titles: SharedTitles, feed: ChangeFeed) -> PageDefinition {
        var definition = PageDefinition(name: "shared", title: "Shared") { _ in
            CascadingRootTableDelegate(childDelegates: [SharedTitlesSection(titles)])
        }
        definition.changes = feed
        return definition
    }
}

/// A one-section page that uses every link and form the renderer writes: select, delete, a named
/// action with a field, move, an insert row, a section index and (with a row limit) a `next`
/// link; its section and row ids hold spaces, quotes, `&`, `/`, `%`, non-ASCII text and a
/// trailing `-header`.
final class EveryFeatureItems: ListDataSource<TestItem> {
    static let sectionID: SectionID = "Science fiction & \"more\"/ü-header"
    static let items = ["a b", "add", "quote\"'<", "ünï/%2F", "x-header"].map { TestItem(id: $0, title: $0) }

    init() {
        super.init(models: Self.items, sectionID: Self.sectionID, title: "Science fiction") { item, _ in
            TableCell(.basic, CellContent(title: item.title))
        }
    }

    override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle {
        models[indexPath.row].id == "add" ? .insert : .delete
    }
    override func canMoveRow(at indexPath: TableIndexPath) -> Bool { true }
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] {
        [RowAction(name: "re name?", title: "Rename", field: .init(name: PageContract.Field.title, placeholder: "New title"))]
    }
    override func sectionIndexTitles() -> [String]? { ["S"] }
}

extension PatchLog.Entry {
    /// An entry whose HTML is the same with and without controls (it then costs the log nothing more).
    init(id: Int, withHTML: [UInt8], withoutHTML: [UInt8]) {
        self.init(id: id, withHTML: withHTML, withoutHTML: withoutHTML, withHTMLWithoutControls: withHTML)
    }
}

/// Credentials in memory, as `SQLiteCredentialStore` keeps them on disk: for the access-control tests.
final class MemoryCredentialStore: CredentialStore {
    private struct State {
        var secret = SessionSecret.random().bytes
        var tokens: [String: StoredToken] = [:]
        var usedNonces = UsedSignInNonces()
        var tokenReads = 0
    }

    private let state = Mutex(State())

    func sessionSecret() throws -> [UInt8] { state.withLock { $0.secret } }

    func rotateSessionSecret() throws -> [UInt8] {
        state.withLock { state in
            state.secret = SessionSecret.random().bytes
            return state.secret
        }
    }

    func tokens() throws -> [StoredToken] {
        state.withLock { state in
            state.tokenReads += 1
            return Array(state.tokens.values)
        }
    }

    /// How many times ``tokens()`` was read: the server's reads of the store.
    var tokenReads: Int { state.withLock { $0.tokenReads } }

    func add(_ token: StoredToken) throws {
        try state.withLock { state in
            guard state.tokens[token.name] == nil else { throw DuplicateToken() }
            state.tokens[token.name] = token
        }
    }

    func revokeToken(named name: String) throws -> Bool {
        state.withLock { $0.tokens.removeValue(forKey: name) != nil }
    }

    func claimSignInNonce(_ nonce: String, expires: Date, now: Date) throws -> Bool {
        state.withLock { $0.usedNonces.claim(nonce, expires: expires, now: now) }
    }
}

/// ``MemoryCredentialStore``'s refusal of a second token of one name.
struct DuplicateToken: Error {}
