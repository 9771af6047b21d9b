import ServiceLifecycle

/// Background work as a `Service`: `start` when its `ServiceGroup` runs it, `stop` when the group
/// shuts down (gracefully or not). A ``SiteFeature`` adds one to ``SiteBuilder/services`` for work
/// that lasts while the site runs, such as watching a database file for other processes' writes.
///
///     site.services.append(StartStopService(start: { store.startWatching() }, stop: { store.stopWatching() }))
public struct StartStopService: Service {
    private let start: @Sendable () -> Void
    private let stop: @Sendable () -> Void

    /// Runs `start` when run, and `stop` at shutdown; neither may block for long.
    public init(start: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Void) {
        self.start = start
        self.stop = stop
    }

    /// Starts the work, waits for the group's shutdown, then stops it.
    public func run() async throws {
        start()
        defer { stop() }
        // Cancellation, which also ends the wait, stops the work the same way.
        try? await gracefulShutdown()
    }
}
