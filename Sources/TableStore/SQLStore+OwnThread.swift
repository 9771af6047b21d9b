extension SQLStore {
    /// Writes in one transaction, as ``transaction(_:)`` does, on a thread of its own
    /// (``OwnThread``), awaited: the way to write from async code (a request handler, a background
    /// task) without blocking Swift's cooperative pool, for SQLite's ``Store`` and a `PostgresStore` alike.
    ///
    ///     try await store.transactionOnOwnThread { db in
    ///         try db.execute("INSERT INTO book (title, author) VALUES (?, ?)", [.text(title), .text(author)])
    ///     }
    public func transactionOnOwnThread<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await OwnThread.run { try self.transaction(body) }
    }
}
