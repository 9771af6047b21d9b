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
/// cells, `ObservedSource(store, section:cell:select:)` builds the sections itself. Background work
/// (a picture loaded, a timer) changes what the page shows by writing to the store, or, for a state
/// of this process alone, by notifying a feed given as `local`.
///
/// It is a ``PageSource`` that reads versioned snapshots; its other abilities answer "none" and are
/// `open`, so a subclass offers one by overriding it (a download: ``exporter(as:)``).
open class ObservedSource<Value: Sendable>: CascadingRootTableDelegate, PageSource {
    /// Where the data's changes are announced: the store's feed, and the `local` one if any.
    public let changeFeeds: [ChangeFeed]
    private let read: () throws -> (value: Value, version: Int?)
    // What `show` does besides a subclass's override; set by the initializers that take it.
    var present: ((ObservedSource<Value>, Value) -> Void)?
    private let showsLocalState: Bool

    /// The value last read; nil before the page's host first reads it.
    public private(set) var value: Value?

    /// A root over `store`'s data as `fetch` reads it, for a subclass that overrides ``show(_:)``.
    /// - Parameters:
    ///   - store: the data, and where its changes are announced.
    ///   - fetch: reads what the page shows, in one snapshot (it may block: pages run it on a
    ///     database lane). Everything it reads from `store` is as of one version.
    ///   - local: a feed of state of this process the page also shows (thumbnails this instance
    ///     made): its changes read the data again, and the page numbers its states itself, since
    ///     another instance at the same version may show other ones.
    ///   - sections: the root's children, one per section, until ``show(_:)`` sets others.
    public init<Store: ObservableStore>(
        _ store: Store, fetch: @escaping (Store.Reader) throws -> Value, local: ChangeFeed? = nil,
        sections: [any CascadingTableDelegate] = []
    ) {
        read = { try store.versionedRead(fetch) }
        changeFeeds = [store.changes] + (local.map { [$0] } ?? [])
        showsLocalState = local != nil
        super.init(childDelegates: sections)
    }

    /// A root over `store`'s data as `fetch` reads it, whose `show` updates the delegates from
    /// each value read (the other parameters as in ``init(_:fetch:local:sections:)``).
    public convenience init<Store: ObservableStore>(
        _ store: Store, fetch: @escaping (Store.Reader) throws -> Value, local: ChangeFeed? = nil,
        sections: [any CascadingTableDelegate] = [], show: @escaping (Value) -> Void
    ) {
        self.init(store, fetch: fetch, local: local, sections: sections)
        present = { _, value in show(value) }
    }

    /// Updates the delegates from a value read; the default calls the `show` closure given to the
    /// initializer, if any.
    open func show(_ value: Value) {
        present?(self, value)
    }

    /// True: the page's host reads the data before the first render and numbers states by its versions.
    public var readsVersionedSnapshots: Bool { true }

    /// Reads the data and shows it; the version of what was read, unless state of this process shows too.
    public func readFromSource() throws -> Int? {
        let (value, version) = try read()
        self.value = value
        show(value)
        return showsLocalState ? nil : version
    }

    /// None: the live table's rows are paged; override to read later pages away from the host.
    open var rowPager: (any RowPager)? { nil }

    /// None: the live table shows the row; override to show it in full from elsewhere.
    open func root(ofRow row: RowID) throws -> (any TableRoot)? { nil }

    /// None: the page has no download; override to offer one.
    open func exporter(as format: ExportFormat) throws -> (any RowExporter)? { nil }
}
