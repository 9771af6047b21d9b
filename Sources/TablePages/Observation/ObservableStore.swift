/// Data a page observes: it reads a value and the data's version in one snapshot, and announces
/// every change on ``changes``. ``ObservedSource`` is built over one.
///
///     let shelf = MemoryStore(Book.samples)           // in memory
///     let todos = ObservableSQLStore(store)           // TablePagesDatabase: SQLite or PostgreSQL
///
/// Implementation requirements: ``versionedRead(_:)`` runs `fetch` and reads the version in the
/// same snapshot, so that the version names exactly the data `fetch` saw; it may block (pages call
/// it on a database lane). A version is a counter every write advances, the same on every process
/// that serves the data and across restarts, or nil when the data has none: a page then numbers
/// its states itself. ``changes`` is notified after every change, from any writer.
public protocol ObservableStore: Sendable {
    /// What a fetch reads through: a database session, or the value itself.
    associatedtype Reader

    /// Runs `fetch` in one snapshot and returns its value with the data's version in that snapshot.
    func versionedRead<Value: Sendable>(_ fetch: (Reader) throws -> Value) throws -> (value: Value, version: Int?)

    /// Where changes to the data are announced.
    var changes: ChangeFeed { get }
}
