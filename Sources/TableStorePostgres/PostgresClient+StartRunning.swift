import PostgresNIO

extension PostgresClient {
    /// Starts postgres-nio's `PostgresClient.run()` in a task that is already inside `run()` when
    /// this returns, so a lease right after it finds the pool running.
    ///
    /// A plain `Task { await client.run() }` is only scheduled: a lease made before the pool picks it
    /// up works, but postgres-nio logs "`PostgresClient.run()` hasn't been called yet" for it. An
    /// immediate task runs on the calling thread up to its first suspension, which comes after
    /// `run()` has marked the client running; nothing here blocks.
    ///
    ///     let client = PostgresClient(configuration: configuration)
    ///     let running = client.startRunning()
    ///     defer { running.cancel() }
    ///     try await client.withConnection { … }
    ///
    /// - Returns: The task running the client; cancel it to close the pool.
    public func startRunning() -> Task<Void, Never> {
        Task.immediate { await self.run() }
    }
}
