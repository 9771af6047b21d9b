import ServiceLifecycle

extension Server: Service {
    /// Serves until the service group shuts down gracefully, then stops gracefully (``shutdown()``):
    /// run the server in a `ServiceGroup` beside a program's other services, and the group's signals
    /// (SIGTERM, SIGINT) stop it the way they stop the rest.
    ///
    ///     let server = Server(configuration: .init(port: 8080), responder: router)
    ///     let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    ///     try await group.run()
    ///
    /// Throws ``StartError`` when it cannot listen.
    public func run() async throws {
        try await run(onListening: { _ in }, onShutdown: {})
    }

    /// ``run()``, telling `onListening` the port once the server listens and calling `onShutdown`
    /// when graceful shutdown begins, before the server stops (a site makes its readiness check
    /// answer 503 there, so load balancers stop sending requests).
    ///
    /// Cancelled instead of shut down, it stops the same way: its grace period sleeps, which a
    /// cancelled task would skip, and stopping the daemon with a request suspended aborts the process.
    public func run(onListening: (_ port: Int) -> Void, onShutdown: @escaping @Sendable () -> Void) async throws {
        try start()
        onListening(port)
        try? await gracefulShutdown()
        await Task {
            onShutdown()
            await self.shutdown()
        }.value
    }
}
