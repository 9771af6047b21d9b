import Logging
import MicroHTTP
import Synchronization
import TableKit

/// The one live table of a page variant and everything done to it: renders, actions, and the
/// patches its changes produce, published once to every subscriber.
///
/// An actor, because a table and its delegate tree must stay in one isolation domain. It runs on a
/// `DatabaseLane` rather than Swift's cooperative pool, so its delegates may block on a database;
/// hosts on different lanes render in parallel.
public actor PageHost {
    /// The variant this host serves.
    public nonisolated let variant: PageVariant
    /// Where the host's work runs.
    nonisolated let lane: DatabaseLane
    /// The host runs on its lane.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { lane.asUnownedSerialExecutor() }
    /// The subscribers and recent patches.
    nonisolated let channel: LiveChannel
    // Identifies the data the table's renders show within one version (see ``RenderCache/Stamp``).
    private nonisolated let renderGeneration = Atomic<UInt64>(RenderCache.newGeneration())
    // Memory the table holds, estimated when it is made and after each re-read.
    private nonisolated let tableBytes: Atomic<Int>
    private let table: TableAdapter
    // What the page can do besides its table: the root's declared abilities (none for a plain root).
    private let source: any PageSource
    private nonisolated let definition: PageDefinition
    private nonisolated let renderContext: RenderContext
    // The root's ``PageSource/rowPager`` as of its last re-read, for ``detachedSection(_:after:at:limit:as:controls:)``,
    // and the table's only section, if it has one then (``onlySectionID``).
    private nonisolated let pager = Mutex<(pager: (any RowPager)?, onlySection: SectionID?)>((nil, nil))
    // The same, for viewers who may not write: no action controls.
    private var readOnlyContext: RenderContext {
        var context = renderContext
        context.showsControls = false
        return context
    }
    private let logger: Logger
    private nonisolated let metrics: LiveMetrics?
    // Set while a refresh is queued, so a burst of change notifications costs one re-read.
    private nonisolated let refresh: RefreshSignal
    // Whether the last re-read failed (see ``insertRow(inSection:values:)``).
    private var rereadFailed = false
    // While an insert runs: the rows its changes added, so its answer can name the new row.
    private var insertedRows: [(row: RowID, section: SectionID)]?
    // How the table's states are numbered, by the versions an observed source reads or by the host.
    private var versions: PageVersions
    // What re-reads the root's data, when it does (``RereadingSource``).
    private let rereading: (any RereadingSource)?
    // Stops the observations of the data's changes, when the host goes (``PageHosts`` drops unwatched variants).
    private nonisolated let stopObserving: @Sendable () -> Void

    /// Builds the variant's table, numbering its first state by the version an observed source read
    /// (see ``PageVersions``); call it on `lane`, since the page's factory may read a database.
    init(definition: PageDefinition, variant: PageVariant, lane: DatabaseLane, settings: LiveSettings, logger: Logger, metrics: LiveMetrics? = nil) throws {
        self.variant = variant
        self.lane = lane
        self.logger = logger
        self.metrics = metrics
        // Observed before the factory reads, so a change committed after that read is not lost:
        // it queues a refresh that starts once the host exists.
        let refresh = RefreshSignal()
        self.refresh = refresh
        let stopDefinitionFeed = definition.changes?.observe { refresh.request() }
        let table: TableAdapter
        let source: any PageSource
        let rereading: (any RereadingSource)?
        var versions: PageVersions
        var stopSource: (@Sendable () -> Void)?
        do {
            let made = try definition.makeSource(variant)
            source = made.abilities
            rereading = source as? any RereadingSource
            // A source that reads versioned snapshots reads once its changes are observed, for the same reason.
            stopSource = rereading?.observeChanges { refresh.request() }
            let followsClock = rereading?.readsVersionedSnapshots ?? false
            versions = PageVersions(followsClock: followsClock, fingerprint: PageVersions.fingerprint(rowLimit: settings.pageRowLimit))
            versions.beginRead(at: followsClock ? try rereading?.readFromSource() : nil)
            try PageSourceMisplaced.check(made.root, page: variant.page)
            table = IgnoredAnswerLog.shared.watching(definition.makeTable(root: made.root, version: versions.next()), page: variant.page, logger: logger)
            versions.endRead()
        } catch {
            stopDefinitionFeed?()
            stopSource?()
            throw error
        }
        self.stopObserving = { [stopSource] in
            stopDefinitionFeed?()
            stopSource?()
        }
        self.rereading = rereading
        self.versions = versions
        self.table = table
        self.source = source
        self.definition = definition
        // A variant of one row links its row as the page's variant it belongs to does.
        let linked = definition.rowVariantParameter.map { variant.removing($0) } ?? variant
        self.renderContext = RenderContext(basePath: variant.basePath, variantQuery: linked.query, rowLimit: settings.pageRowLimit)
        self.channel = LiveChannel(
            latestID: table.version, logCapacity: settings.patchLogCapacity, logByteLimit: settings.patchLogByteLimit,
            subscriberBufferLimit: settings.subscriberBufferLimit, metrics: metrics
        )
        self.tableBytes = Atomic(TableMemoryEstimate.bytes(of: table, context: renderContext))
        let rowPager = source.rowPager
        let onlySection = Self.onlySection(of: table)
        pager.withLock { $0 = (rowPager, onlySection) }
        // The table calls back synchronously from inside this actor's own methods (an action, or
        // changes queued on its updater), so the isolation assumption holds.
        table.onChange = { [unowned self] changeset in
            self.assumeIsolated { $0.publish(changeset) }
        }
        table.nextVersion = { [unowned self] _ in
            self.assumeIsolated { $0.versions.next() }
        }
        if definition.rereadsOnlyWhileWatched {
            // Nobody sees an unwatched variant's re-read: it waits for a subscriber (``subscribe(_:format:lastSeenID:tag:)``)
            // or a render, which re-read first.
            let channel = channel
            refresh.holdWhile { channel.subscriberCount == 0 }
        }
        refresh.attach { [weak self] in
            guard let self else { return }
            Task { await self.refreshIfQueued() }
        }
        table.updater.whenChangesQueued { [weak self] in
            guard let self else { return }
            Task { await self.applyQueuedChanges() }
        }
    }

    deinit {
        stopObserving()
    }

    /// Re-reads the table's data soon, once however many changes were announced meanwhile.
    nonisolated func queueRefresh() {
        refresh.request()
    }

    /// Adds `stream` as a subscriber of the variant's patches (``LiveChannel/subscribe(_:format:lastSeenID:tag:)``);
    /// a page that re-reads only while watched then re-reads if its data changed while nobody
    /// watched, so the new subscriber gets that change as a patch after its replay.
    @discardableResult
    nonisolated func subscribe(_ stream: EventStream, format: PatchFormat, lastSeenID: Int?, tag: [UInt8]? = nil) -> Bool {
        let subscribed = channel.subscribe(stream, format: format, lastSeenID: lastSeenID, tag: tag)
        if subscribed { refresh.resume() }
        return subscribed
    }

    /// Whether a change was announced that a page re-reading only while watched has not read
    /// yet: its renders must re-read first, and no render made before may be served.
    private nonisolated var isStale: Bool {
        definition.rereadsOnlyWhileWatched && refresh.isRequested
    }

    /// Re-reads first when ``isStale``, so a page nobody watched shows its data as it is now.
    private func catchUp() {
        if isStale { refreshIfQueued() }
    }

    /// Re-reads the table's data (the root reads its source first: ``RereadingSource/readFromSource()``) and
    /// publishes the rows that differ, if a change was announced since the last re-read. Actions
    /// call it before they return, so that an action whose delegate wrote to the store answers with
    /// (and redirects to) the page it changed.
    func refreshIfQueued() {
        guard refresh.take() else { return }
        metrics?.rereads.increment()
        // Counts outside the table's rows (a database window's remaining rows) can change without a
        // new version; a new generation keeps a page rendered before from being served after,
        // even one stored in the cache once this re-read is done.
        renderGeneration.store(RenderCache.newGeneration(), ordering: .releasing)
        do {
            // A root that reads nothing (the default) may still read shared data as it answers:
            // comparing its answers with what was sent is what a change feed can do for it.
            versions.beginRead(at: try rereading?.readFromSource())
            defer { versions.endRead() }
            table.reconcileData()
            updatePager()
            tableBytes.store(TableMemoryEstimate.bytes(of: table, context: renderContext), ordering: .relaxed)
        } catch {
            rereadFailed = true
            logger.error("page \(variant.page) could not re-read its data (trying again in \(Self.rereadRetryDelay)): \(error)")
            // The change that asked for this re-read is still unseen: ask again, later, so that the
            // page does not stay stale until the next change comes (a database back after an outage).
            let refresh = refresh
            Task {
                try? await Task.sleep(for: Self.rereadRetryDelay)
                refresh.request()
            }
        }
    }

    /// How long a page waits before it tries again a re-read that failed.
    static let rereadRetryDelay = Duration.seconds(1)

    /// The table's current version: the id of the last patch published.
    public var version: Int { table.version }

    /// What a render made now would show, for checking a cached one without waiting for the host.
    nonisolated var renderStamp: RenderCache.Stamp {
        // Generation 0 is no host's: a stale page's cached renders all miss.
        if isStale { return RenderCache.Stamp(version: channel.latestID, generation: 0) }
        return RenderCache.Stamp(version: channel.latestID, generation: renderGeneration.load(ordering: .acquiring))
    }

    /// Estimated bytes the host holds: its table's rows and its patch log (see ``TableMemoryEstimate``).
    nonisolated var estimatedByteCount: Int {
        tableBytes.load(ordering: .relaxed) + channel.logByteCount
    }

    /// Applies the changes queued on the table's ``/TableKit/TableUpdater``, as one batch; the
    /// updater starts this on the host's lane when a change arrives.
    func applyQueuedChanges() {
        for error in table.applyQueuedChanges() {
            logger.error("page \(variant.page) could not apply a change: \(error)")
        }
        updatePager()
        tableBytes.store(TableMemoryEstimate.bytes(of: table, context: renderContext), ordering: .relaxed)
    }

    // MARK: Rendering

    /// The whole page in `format`, with the stamp of what it shows; each section shows at most
    /// `limit` rows (``LiveSettings/pageRowLimit`` when nil); HTML without action controls unless `controls`.
    func renderPage(as format: RenderFormat, limit: Int? = nil, controls: Bool = true) -> (bytes: [UInt8], stamp: RenderCache.Stamp) {
        catchUp()
        var context = controls ? renderContext : readOnlyContext
        if let limit { context.rowLimit = limit }
        var out = OutputBuffer()
        TableRenderer(table: table, context: context).renderPage(as: format, into: &out)
        return (out.bytes, RenderCache.Stamp(version: table.version, generation: renderGeneration.load(ordering: .relaxed)))
    }

    /// The id of the table's section when it has exactly one, for a page URL that pages it.
    /// Not isolated: kept with the pager, so a request for a later page does not wait for the
    /// host's lane only to read it (a hop to that thread and back for every page of rows).
    nonisolated var onlySectionID: SectionID? {
        pager.withLock { $0.onlySection }
    }

    private static func onlySection(of table: TableAdapter) -> SectionID? {
        table.numberOfSections == 1 ? table.sectionID(at: 0) : nil
    }

    /// The work that reads and renders one section's rows after a row (or from `position`, counted
    /// from 0), away from the host, when its root has a ``PageSource/rowPager`` (a
    /// ``PositionalRowPager`` for a position); nil otherwise (``renderSection(_:after:at:limit:as:controls:)``
    /// answers). Not isolated: a request for a later page needs nothing of the host but its pager.
    nonisolated func detachedSection(_ id: SectionID, after: RowID?, at position: Int? = nil, limit: Int, as format: RenderFormat, controls: Bool = true) -> (@Sendable () throws -> [UInt8])? {
        // A stale page re-reads on its host first (``renderSection(_:after:at:limit:as:controls:)``).
        guard !isStale, let pager = pager.withLock({ $0.pager }) else { return nil }
        let positional = pager.positional
        if position != nil, positional == nil { return nil }
        let definition = definition
        let logger = logger
        let page = variant.page
        var context = renderContext
        if !controls { context.showsControls = false }
        let renderContext = context
        return {
            // Room for rows of a few columns from the start, not a regrowth every doubling.
            var out = OutputBuffer(capacity: min(Self.maxInitialPageCapacity, 1024 + limit * 256))
            let root = if let position, let positional {
                try positional.root(ofRowsIn: id, from: position, limit: limit)
            } else {
                try pager.root(ofRowsIn: id, after: after, limit: limit)
            }
            let table = IgnoredAnswerLog.shared.watching(definition.makeRenderedOnceTable(root: root), page: page, logger: logger)
            try TableRenderer(table: table, context: renderContext).renderSection(id, limit: limit, as: format, into: &out)
            return out.bytes
        }
    }

    /// The most bytes a page of rows reserves before it is written; a larger page grows as it is written.
    private static let maxInitialPageCapacity = 256 * 1024

    /// Takes the root's pager and the table's only section as of its data now (see ``PageSource/rowPager``).
    private func updatePager() {
        let current = (source.rowPager, Self.onlySection(of: table))
        pager.withLock { $0 = current }
    }

    /// One section, paged after a row, or from `position` (counted from 0) as far as the live table
    /// holds the section's rows. HTML
    /// without action controls unless `controls`.
    /// - Throws: 400 for a position past the rows held when more follow them (only a
    ///   ``PositionalRowPager`` reaches those).
    func renderSection(_ id: SectionID, after: RowID?, at position: Int? = nil, limit: Int, as format: RenderFormat, controls: Bool = true) throws -> [UInt8] {
        catchUp()
        var after = after
        if let position {
            after = try rowBefore(position, inSection: id)
        }
        var out = OutputBuffer()
        let renderContext = controls ? renderContext : readOnlyContext
        try TableRenderer(table: table, context: renderContext).renderSection(id, after: after, limit: limit, as: format, into: &out)
        return out.bytes
    }

    /// The row of the live table just before `position` in section `id`, which a page from that
    /// position follows; nil for the first position (or an empty section); the last row held for a
    /// position past the end of a section held whole.
    private func rowBefore(_ position: Int, inSection id: SectionID) throws -> RowID? {
        guard let section = table.sectionIndex(forSectionID: id) else { throw TableError.unknownSection(id) }
        let held = table.numberOfRows(inSection: section)
        let following = table.root.numberOfRowsAfterWindow(inSection: section) ?? 0
        if position > held, following > 0 {
            throw HTTPError(400, "This page holds the first \(held) rows of section \u{201C}\(id)\u{201D} and cannot start past them: follow the section's next link.")
        }
        let start = min(position, held)
        return start == 0 ? nil : table.rowID(at: TableIndexPath(section: section, row: start - 1))
    }

    /// One row; the root is asked for it first (``PageSource/root(ofRow:)``); HTML without action controls unless `controls`.
    func renderRow(_ id: RowID, as format: RenderFormat, controls: Bool = true) throws -> [UInt8] {
        catchUp()
        var out = OutputBuffer()
        let renderContext = controls ? renderContext : readOnlyContext
        // A root may show the row in full, which its live table may not hold.
        let detail = try source.root(ofRow: id).map {
            IgnoredAnswerLog.shared.watching(definition.makeRenderedOnceTable(root: $0), page: variant.page, logger: logger)
        }
        try TableRenderer(table: detail ?? table, context: renderContext).renderRow(id, as: format, into: &out)
        return out.bytes
    }

    /// ``renderRow(_:as:controls:)`` and the version of the state it shows, read together: a
    /// live row page (``PageDefinition/rowVariantParameter``) follows the stream from there.
    func renderRowWithVersion(_ id: RowID, as format: RenderFormat, controls: Bool = true) throws -> (bytes: [UInt8], version: Int) {
        (try renderRow(id, as: format, controls: controls), table.version)
    }

    /// An exporter of the variant's rows from its root (``PageSource/exporter(as:)``); nil when it has none.
    func exporter(as format: ExportFormat) throws -> (any RowExporter)? {
        catchUp()
        return try source.exporter(as: format)
    }

    // MARK: Actions

    /// Runs a table action, then the re-read its delegate's store writes announced, whether or not
    /// it threw: the answer (and a form's redirect) then shows the page the action changed.
    private func act<Result>(_ action: () throws -> Result) rethrows -> Result {
        defer {
            refreshIfQueued()
            updatePager()
        }
        return try action()
    }

    /// Selects a row; `location` is where the delegate asked to lead the person who selected.
    /// - Throws: what the row's delegate threw; the selection then published nothing.
    func selectRow(_ id: RowID) throws -> (outcome: SelectionOutcome, location: String?) {
        let outcome = try act { try table.selectRow(id) }
        return (outcome, table.shownLocation)
    }
    func performAction(named name: String, onRow id: RowID, values: [String: String]) throws {
        try act { try table.performAction(named: name, onRow: id, values: values) }
    }
    func deleteRow(_ id: RowID) throws {
        try act { try table.deleteRow(id) }
    }
    func moveRow(_ id: RowID, toSection section: SectionID, placement: RowPlacement) throws {
        try act { try table.moveRow(id, toSection: section, placement: placement) }
    }
    /// Asks the section's delegate to insert a row; returns whether the table changed, since a
    /// delegate may decline (a read-only section, values it does not accept), and the new row's id
    /// when the change added exactly one row to the section (nil when it added none the table
    /// holds, or several, as when another writer's rows came in the same re-read).
    ///
    /// A delegate that wrote to a store changes the table only through the re-read its change
    /// asked for; when that re-read failed, the write went through all the same, so the answer
    /// is that the table changed (the page shows it once a re-read succeeds).
    func insertRow(inSection section: SectionID, values: [String: String]) throws -> (changed: Bool, row: RowID?) {
        let before = table.version
        rereadFailed = false
        insertedRows = []
        defer { insertedRows = nil }
        try act { try table.insertRow(inSection: section, values: values) }
        let added = (insertedRows ?? []).filter { $0.section == section }
        return (table.version != before || rereadFailed, added.count == 1 ? added[0].row : nil)
    }
    func prefetchRows(_ ids: [RowID]) { table.prefetchRows(ids) }

    // MARK: Publishing

    /// Renders a committed changeset once per wire format and hands the bytes to the channel.
    private func publish(_ changeset: Changeset) {
        if insertedRows != nil {
            for case .insertRow(let row, let section, _) in changeset.operations {
                insertedRows?.append((row, section))
            }
        }
        let renderer = TableRenderer(table: table, context: renderContext)
        var withHTML = OutputBuffer()
        renderer.renderPatch(changeset, version: table.version, includeHTML: true, into: &withHTML)
        var withoutHTML = OutputBuffer()
        renderer.renderPatch(changeset, version: table.version, includeHTML: false, into: &withoutHTML)
        // Viewers who may not write get rows without controls, in a stream of their own format.
        var withoutControls = OutputBuffer()
        TableRenderer(table: table, context: readOnlyContext).renderPatch(changeset, version: table.version, includeHTML: true, into: &withoutControls)
        let id = String(table.version)
        let isReset = changeset.operations.contains(.reset)
        let event = (isReset ? PageContract.PatchEvent.reset : .patch).rawValue
        channel.publish(PatchLog.Entry(
            id: table.version,
            withHTML: EventStream.encode(event: event, id: id, data: withHTML.string),
            withoutHTML: EventStream.encode(event: event, id: id, data: withoutHTML.string),
            withHTMLWithoutControls: EventStream.encode(event: event, id: id, data: withoutControls.string)
        ))
    }
}
