/// Data that changes outside the page, which pages observe: it reads a value and the data's
/// version in one snapshot, and tells its observers after every change. An ``ObservedSource`` is
/// built over one, the one door for such data. Every store provides it itself: a ``MemoryStore``,
/// and, with `TablePagesDatabase`, SQLite's `Store` and a `PostgresStore`.
///
///     let shelf = MemoryStore(Book.samples)                              // in memory
///     let books = try Store.open(path: "books.sqlite", migrations: Book.migrations)   // SQLite
///
/// Implementation requirements: ``versionedRead(_:)`` runs `fetch` and reads the version in the
/// same snapshot, so that the version names exactly the data `fetch` saw; it may block (pages call
/// it on a database lane). A version is a counter every write advances, the same on every process
/// that serves the data and across restarts, or nil when the data has none: a page then numbers
/// its states itself. ``onChange(_:)`` observers are called after every change, from any writer,
/// until the function it returns is called (a page stops observing when it is dropped).
public protocol ObservableStore<Reader>: Sendable {
    /// What a fetch reads through: a database session, or the value itself.
    associatedtype Reader

    /// Runs `fetch` in one snapshot and returns its value with the data's version in that snapshot.
    func versionedRead<Value: Sendable>(_ fetch: (Reader) throws -> Value) throws -> (value: Value, version: Int?)

    /// Calls `observer` after every change to the data, until the function it returns is called.
    @discardableResult
    func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}
