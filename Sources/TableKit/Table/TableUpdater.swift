import Synchronization

/// The door for work of this process that changes a row from outside the table's isolation: a
/// cover that finished loading, a thumbnail made. A row's delegate gets it from its context
/// (`tableContext?.updater`, IGListKit's context style), hands it to a task, and the task says
/// which row changed and how (``updateRow(_:of:_:)``). Data that changes outside the page (a
/// database another writer changes) has the other door: TablePages' `ObservedSource` over a store.
///
///     let updater = tableContext!.updater
///     Task.detached {
///         let cover = await covers.load(book.id)
///         updater.updateRow(RowID(book.id), of: BookRow.self) { row in row.cover = cover }
///     }
///
/// Every call returns at once; the change runs later inside the table's isolation, when the
/// table's owner applies queued changes (``TableAdapter/applyQueuedChanges()``). Changes queued
/// before the owner gets to them are applied in one batch, so they reach subscribers as one
/// changeset. A TablePages page host applies them as soon as they arrive, on the host's own
/// lane; an owner of a plain ``TableAdapter`` calls ``whenChangesQueued(_:)`` to learn when to do it,
/// or applies them when it suits it.
///
/// At most ``queueLimit`` changes wait at a time; a call past it, or made after the table is
/// gone, queues nothing and returns false.
public final class TableUpdater: Sendable {
    /// A queued change: runs with the table inside its isolation.
    typealias Change = @Sendable (TableAdapter) throws -> Void

    private struct State {
        var queue: [Change] = []
        var wake: (@Sendable () -> Void)?
        var isClosed = false
    }

    /// The most changes that may wait to be applied; calls past it are refused, so that a
    /// runaway producer cannot fill the memory with changes a table never gets to.
    public static let queueLimit = 4096

    private let state = Mutex(State())

    init() {}

    /// Changes the delegate of type `T` that shows the row `id` (the row delegate, or the nearest
    /// one above it, up to the root), inside the table's isolation, as a cell update: the row is
    /// reloaded and subscribers get what changed.
    ///
    ///     updater.updateRow("book-7", of: BookRow.self) { row in row.cover = cover }
    ///
    /// Nothing happens when, by the time the change runs, the table has no row `id` or no delegate
    /// of type `T` on its path.
    /// - Returns: whether the change was queued (false past ``queueLimit`` or after the table is gone).
    @discardableResult
    public func updateRow<T>(_ id: RowID, of type: T.Type, _ change: @escaping @Sendable (T) -> Void) -> Bool {
        enqueue { table in table.updateRow(id, of: type, change) }
    }

    /// Runs `body` with the table's context inside its isolation, as one batch: report what it
    /// changes as inside ``TableContext/performBatchUpdates(_:)``.
    ///
    ///     updater.perform { context in
    ///         context.reloadRows(withIDs: ["progress"])
    ///     }
    ///
    /// To change the delegates' data too, use ``perform(on:_:)``, which hands `body` the root.
    /// Below the door (``updateRow(_:of:_:)``), for the package's own owners of tables.
    ///
    /// When `body` throws, what it reported is discarded and the error is returned by
    /// ``TableAdapter/applyQueuedChanges()`` (a page host logs it).
    /// - Returns: whether the change was queued (false past ``queueLimit`` or after the table is gone).
    @discardableResult
    package func perform(_ body: @escaping @Sendable (any TableContext) throws -> Void) -> Bool {
        enqueue { table in try table.performBatchUpdates { try body(table) } }
    }

    /// Runs `body` with the table's root, when it is a `Root`, and its context inside the table's
    /// isolation, as one batch: the way to change delegates' data from a task, since the task
    /// cannot hold the delegates themselves.
    ///
    ///     updater.perform(on: TodoRoot.self) { root, context in
    ///         root.open.insert(todo, at: 0)
    ///         context.insertRows(at: [TableIndexPath(section: 0, row: 0)])
    ///     }
    ///
    /// Nothing happens when the root is not a `Root`. Errors are handled as ``perform(_:)`` handles them.
    /// - Returns: whether the change was queued (false past ``queueLimit`` or after the table is gone).
    @discardableResult
    package func perform<Root>(on type: Root.Type, _ body: @escaping @Sendable (Root, any TableContext) throws -> Void) -> Bool {
        enqueue { table in
            guard let root = table.root as? Root else { return }
            try table.performBatchUpdates { try body(root, table) }
        }
    }

    /// Re-reads the whole table inside its isolation and sends only what changed
    /// (``TableContext/reconcileData()``), for data that changed without anyone saying where.
    /// - Returns: whether the change was queued (false past ``queueLimit`` or after the table is gone).
    @discardableResult
    package func reconcile() -> Bool {
        enqueue { table in table.reconcileData() }
    }

    /// Sets what is called, on the thread of the call that queued it, when a change is queued and
    /// none was waiting; when changes are waiting already, it is called at once. The owner of the
    /// table arranges for ``TableAdapter/applyQueuedChanges()`` to run inside the table's isolation.
    ///
    ///     table.updater.whenChangesQueued { Task { await host.applyQueuedChanges() } }
    public func whenChangesQueued(_ wake: @escaping @Sendable () -> Void) {
        let waiting = state.withLock { state in
            state.wake = wake
            return !state.queue.isEmpty
        }
        if waiting { wake() }
    }

    /// The number of changes waiting to be applied.
    public var queuedCount: Int {
        state.withLock { $0.queue.count }
    }

    private func enqueue(_ change: @escaping Change) -> Bool {
        let wake: (@Sendable () -> Void)?? = state.withLock { state in
            guard !state.isClosed, state.queue.count < Self.queueLimit else { return nil }
            state.queue.append(change)
            return .some(state.queue.count == 1 ? state.wake : nil)
        }
        guard let wake else { return false }
        wake?()
        return true
    }

    /// Takes every waiting change, oldest first.
    func takeQueue() -> [Change] {
        state.withLock { state in
            defer { state.queue = [] }
            return state.queue
        }
    }

    /// Drops waiting changes and refuses later ones: the table is gone.
    func close() {
        let dropped = state.withLock { state in
            state.isClosed = true
            state.wake = nil
            defer { state.queue = [] }
            return state.queue
        }
        // Released outside the lock: a change's captures may run arbitrary deinitializers.
        _ = dropped
    }
}
