import TableKit

/// A page's root over data it observes: it reads `fetch`'s value and the data's version in one
/// snapshot, shows the value, and reads again whenever the data changes, after which the page
/// sends only the rows that differ. The version names exactly the state read, so every instance
/// serving the data, and a restarted one, numbers that state alike.
///
///     PageDefinition(name: "todo", title: "To do") { _ in
///         ObservedSource(todos, fetch: { db in try Todo.all(db) }, sections: [list]) { todos in
///             list.show(todos)
///         }
///     }
///
/// `show` (or an override of ``show(_:)``) updates the delegates below the root from the value:
/// ``ObservedSection/show(_:)`` keeps the row delegate of every item already shown. For a list of
/// cells, `ObservedSource(store, section:cell:select:)` builds the sections itself.
///
/// It is the door for data that changes outside the page: whoever writes to the store (a request,
/// a background task, the `sqlite3` shell, another server instance), the page reads again. Work of
/// this process that changes one row (a picture loaded) goes through the other door, the table's
/// ``/TableKit/TableUpdater`` (`tableContext?.updater.updateRow(_:of:_:)`).
///
/// It is a ``PageSource`` whose abilities answer "none" and are `open`, so a subclass offers one
/// by overriding it (a download: ``exporter(as:)``).
open class ObservedSource<Value: Sendable>: CascadingRootTableDelegate, PageSource, RereadingSource {
    private let read: () throws -> (value: Value, version: Int?)
    // Observes the store's changes until the function it returns is called.
    private let observe: (@escaping @Sendable () -> Void) -> @Sendable () -> Void
    // What `show` does besides a subclass's override; set by the initializers that take it.
    var present: ((ObservedSource<Value>, Value) -> Void)?
    /// A feed of state of this process the page also shows (thumbnails this instance made): its
    /// changes read the data again, and the page numbers its states itself, since another instance
    /// at the same version may show other ones. Set it before the page's host observes the root.
    package var local: ChangeFeed?

    /// The value last read; nil before the page's host first reads it.
    public private(set) var value: Value?

    /// A root over `store`'s data as `fetch` reads it, for a subclass that overrides ``show(_:)``.
    /// - Parameters:
    ///   - store: the data, and what says when it changed.
    ///   - fetch: reads what the page shows, in one snapshot (it may block: pages run it on a
    ///     database lane). Everything it reads from `store` is as of one version.
    ///   - sections: the root's children, one per section, until ``show(_:)`` sets others.
    public init<Reader>(
        _ store: any ObservableStore<Reader>, fetch: @escaping (Reader) throws -> Value, sections: [any CascadingTableDelegate] = []
    ) {
        read = { try store.versionedRead(fetch) }
        observe = { observer in store.onChange(observer) }
        super.init(childDelegates: sections)
    }

    /// A root over `store`'s data that also shows state of this process alone (thumbnails this
    /// instance made), announced on `local`: its changes read the data again, and the page numbers
    /// its states itself, since another instance at the same version may show other ones.
    package convenience init<Reader>(
        _ store: any ObservableStore<Reader>, fetch: @escaping (Reader) throws -> Value, local: ChangeFeed?,
        sections: [any CascadingTableDelegate] = []
    ) {
        self.init(store, fetch: fetch, sections: sections)
        self.local = local
    }

    /// A root over `store`'s data as `fetch` reads it, whose `show` updates the delegates from
    /// each value read (the other parameters as in ``init(_:fetch:sections:)``).
    public convenience init<Reader>(
        _ store: any ObservableStore<Reader>, fetch: @escaping (Reader) throws -> Value,
        sections: [any CascadingTableDelegate] = [], show: @escaping (Value) -> Void
    ) {
        self.init(store, fetch: fetch, local: nil, sections: sections)
        present = { _, value in show(value) }
    }

    /// Updates the delegates from a value read; the default calls the `show` closure given to the
    /// initializer, if any.
    open func show(_ value: Value) {
        present?(self, value)
    }

    /// Observes the store (and the `local` feed) until the function returned is called.
    final package func observeChanges(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let stopStore = observe(observer)
        let stopLocal = local?.observe(observer)
        return {
            stopStore()
            stopLocal?()
        }
    }

    /// True: the page's host reads the data before the first render and numbers states by its versions.
    final package var readsVersionedSnapshots: Bool { true }

    /// Reads the data and shows it; the version of what was read, unless state of this process shows too.
    final package func readFromSource() throws -> Int? {
        let (value, version) = try read()
        self.value = value
        show(value)
        return local == nil ? version : nil
    }

    /// None: the live table's rows are paged; override to read later pages away from the host.
    open var rowPager: (any RowPager)? { nil }

    /// None: the live table shows the row; override to show it in full from elsewhere.
    open func root(ofRow row: RowID) throws -> (any TableRoot)? { nil }

    /// None: the page has no download; override to offer one.
    open func exporter(as format: ExportFormat) throws -> (any RowExporter)? { nil }
}
