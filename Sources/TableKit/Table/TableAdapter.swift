/// The server-side instance of one table (one page variant): it asks its delegate tree for
/// content, collects batch updates into changesets and carries out people's actions — what
/// IGListKit calls the adapter between a list's data and its view (though it shows nothing: the
/// renderers and the browser do).
///
/// A table and its delegate tree live in one isolation domain (an actor, or a lock-protected
/// host); different tables are independent and render in parallel.
///
///     let table = TableAdapter(root: root)
///     table.title = "To do"
///     table.onChange = { changeset in hub.publish(changeset, version: table.version) }
///     try table.performBatchUpdates {
///         todos.insert(todo, at: 0)
///         table.insertRows(at: [TableIndexPath(section: 0, row: 0)])
///     }
public final class TableAdapter {
    /// The table's title, rendered as the page heading unless its root names one (``TableDataSource/titleForTable()``).
    public var title: String?
    /// The version of the table's state: it changes with every committed non-empty changeset, by
    /// one unless ``nextVersion`` chooses.
    public internal(set) var version = 0
    /// Chooses the version of each committed changeset from the current one; `version + 1` when nil.
    /// A server whose data has a clock of its own (a database's version) numbers states by it, so
    /// that the same version means the same state wherever the table is served. It must never
    /// return a version the table had before.
    public var nextVersion: ((_ current: Int) -> Int)?
    /// Called once per committed batch with a non-empty changeset; after an inconsistent batch
    /// it receives ``Changeset/reset`` so subscribers refetch.
    public var onChange: ((Changeset) -> Void)?
    /// The cell kinds rows can use; starts with the built-in kinds.
    public private(set) var cellKinds = CellKindRegistry()
    /// Where changes from outside the table's isolation wait until ``applyQueuedChanges()``;
    /// delegates reach it as ``TableContext/updater``.
    public let updater = TableUpdater()

    /// The delegate tree. Replacing it (a flat list ↔ sections) prepares the new root and
    /// reloads the table.
    public var root: any TableRoot {
        didSet {
            prepareRoot()
            reloadData()
        }
    }

    // The committed state: identifiers, the content each row had when last sent, and what each
    // section showed around its rows when last sent whole (see `sectionContent(at:)`).
    var snapshot = TableSnapshot.empty
    var records: [RowID: RowRecord] = [:]
    var sectionRecords: [SectionID: SectionRecord] = [:]
    // The header view and window counts last sent (see `TableFrame`).
    var frame = TableFrame.empty
    // The batch being collected; `batchDepth` counts nested `beginUpdates()`.
    var batchDepth = 0
    var pendingUpdates = BatchUpdates()

    /// Where the last ``selectRow(_:)`` asked to lead the person who selected, through
    /// ``TableContext/show(_:)``; nil when it asked for nothing. The HTTP layer redirects there.
    public internal(set) var shownLocation: String?
    /// Called with each delegate answer the table cannot honour (``IgnoredDelegateAnswer``), so
    /// that it is logged, never dropped in silence; nil ignores them.
    public var onIgnoredAnswer: ((IgnoredDelegateAnswer) -> Void)?
    // Set while `didSelectRow` runs: the one time ``TableContext/show(_:)`` leads somewhere.
    var isSelecting = false

    /// Creates a table over a delegate tree, prepares it and reads its initial state.
    ///
    /// `version` is the version of this initial state. A server that restarts can start above any
    /// version an earlier run handed out, so a client's stale `Last-Event-ID` is never mistaken
    /// for a current one.
    public convenience init(root: any TableRoot, version: Int = 0) {
        self.init(root: root, version: version, capturingRows: true)
    }

    /// Creates a table for one render of `root`, to be dropped afterwards (a page of rows read for
    /// one request): it reads the identifiers a render looks rows up by, but not every row's
    /// content, which a live table keeps only to diff later changes against and a render reads
    /// again anyway. That reading, and the dictionary it filled, were about a tenth of the CPU time
    /// of a database page of 100 rows (`Benchmarks/datasette.sh`). Nor does it read the header
    /// view and window counts a live table compares at each commit (a render asks the root for
    /// what it shows): building a database page's header was about 4 % of the same page's CPU
    /// time, and a page of rows does not show it. Updates still work, but the first finds every
    /// row, the header and the counts changed.
    public convenience init(renderingOnce root: any TableRoot) {
        self.init(root: root, version: 0, capturingRows: false)
    }

    private init(root: any TableRoot, version: Int, capturingRows: Bool) {
        self.root = root
        self.version = version
        prepareRoot()
        if capturingRows {
            (snapshot, records, sectionRecords) = captureEverything()
            frame = TableFrame(capturing: root)
        } else {
            snapshot = TableSnapshot(capturing: root, indexingRows: false)
        }
    }

    deinit {
        // A task still holding the updater must find it refusing changes, not queuing them forever.
        updater.close()
    }

    /// Registers a cell kind under its reuse identifier (`register(_:forCellReuseIdentifier:)`).
    public func register(_ kind: CellKind) {
        cellKinds.register(kind)
    }

    private func prepareRoot() {
        root.prepare(table: self)
    }

    /// Reads every identifier, every row's content and every section's content from the delegate tree.
    func captureEverything() -> (TableSnapshot, [RowID: RowRecord], [SectionID: SectionRecord]) {
        let snapshot = TableSnapshot(capturing: root)
        var sectionRecords: [SectionID: SectionRecord] = [:]
        sectionRecords.reserveCapacity(snapshot.sections.count)
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            sectionRecords[section.id] = sectionContent(at: sectionIndex)
        }
        return (snapshot, captureRecords(of: snapshot), sectionRecords)
    }

    /// Reads the content of every row of `snapshot`, which must be the delegate tree's current one.
    func captureRecords(of snapshot: TableSnapshot) -> [RowID: RowRecord] {
        var records: [RowID: RowRecord] = [:]
        records.reserveCapacity(snapshot.rowPaths.count)
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            for rowIndex in section.rows.indices {
                let record = rowRecord(at: TableIndexPath(section: sectionIndex, row: rowIndex))
                records[record.id] = record
            }
        }
        return records
    }
}
