/// A database that runs ``SQLSession``s in transactions and says when its data changed: an
/// ``SQLReader`` that writes too. What the example pages are written against, so that they run on SQLite (``Store``, embedded) and
/// on PostgreSQL (`PostgresStore`, for several instances) without being written twice.
///
///     let titles = try store.snapshot { db in try db.rows("SELECT title FROM todo ORDER BY position").map { try $0.string(0) } }
///     try store.transaction { db in try db.execute("UPDATE todo SET isDone = ? WHERE id = ?", [.bool(true), 3]) }
///     let stop = store.onChange { print("changed") }   // until stop()
///
/// ## Implementation requirements
/// ``SQLReader/snapshot(_:)`` sees one consistent snapshot; ``transaction(_:)`` runs in one transaction that is
/// durable when it returns, and commits or rolls back as a whole. Both block their thread (call
/// them from a database lane). ``onChange(_:)`` observers are called after every change, from any
/// writer this store can see, and when the store cannot tell what changed (then pages re-read).
public protocol SQLStore: SQLReader {
    /// Writes in one transaction, durable once it returns.
    func transaction<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> T

    /// Calls `observer` after the data changed, until the function it returns is called.
    @discardableResult
    func onChange(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// The data's version now: a counter that every write transaction advances within itself, so
    /// a reader that sees the same value before and after its reads saw exactly that version. Nil
    /// when the store keeps no such counter (the default). Blocks its thread.
    ///
    ///     let feed = ChangeFeed(clock: { try store.dataVersion() })
    func dataVersion() throws -> Int?

    /// Reads in one snapshot, and the data's version in that same snapshot: the version of
    /// exactly the data `body` saw, however many writers commit meanwhile. Nil as the version when
    /// the store keeps no counter (the default reads the snapshot alone).
    ///
    ///     let (todos, version) = try store.versionedSnapshot { db in try Todo.all(db) }
    func versionedSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> (value: T, version: Int?)
}

extension SQLStore {
    /// No version counter.
    public func dataVersion() throws -> Int? { nil }

    /// The snapshot, with no version.
    public func versionedSnapshot<T: Sendable>(_ body: (any SQLSession) throws -> T) throws -> (value: T, version: Int?) {
        (try snapshot(body), nil)
    }
}
