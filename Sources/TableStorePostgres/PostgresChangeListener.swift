import Logging
import PostgresNIO
import Synchronization

/// The one dedicated connection per instance that LISTENs on ``PostgresChangeClock/channel``,
/// and reconnects, with backoff, when it is lost.
///
/// Notifications are hints, not a log: they are not kept for a session that was not listening.
/// So each time listening (re)starts, `onResume` is called — "re-read everything you show" —
/// after LISTEN took effect, so a change committed while the connection was down is read then,
/// and one committed after is notified.
final class PostgresChangeListener: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let onChange: @Sendable (PostgresChange?) -> Void
    private let onResume: @Sendable () -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let listening = Atomic<Bool>(false)
    private let lastVersion = Atomic<Int64>(-1)
    private let resumes = Atomic<Int>(0)
    private let resumeVersion = Atomic<Int64>(-1)
    // The live connection, for ``reconnect()`` to close.
    private let connection = Mutex<PostgresConnection?>(nil)
    /// The longest pause between reconnection attempts.
    static let maximumBackoff = Duration.seconds(5)

    init(
        configuration: PostgresConnection.Configuration, logger: Logger,
        onChange: @escaping @Sendable (PostgresChange?) -> Void, onResume: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.logger = logger
        self.onChange = onChange
        self.onResume = onResume
    }

    /// Whether LISTEN is in effect on a live connection now.
    var isListening: Bool { listening.load(ordering: .relaxed) }

    /// The highest version a notification carried, or nil before the first.
    var lastNotifiedVersion: Int64? {
        let version = lastVersion.load(ordering: .relaxed)
        return version < 0 ? nil : version
    }

    /// How many times LISTEN took effect so far (it changes on every (re)connection), and the
    /// version clock's value just after the last time, nil when it could not be read.
    var resumption: (count: Int, version: Int64?) {
        let count = resumes.load(ordering: .acquiring)
        let version = resumeVersion.load(ordering: .relaxed)
        return (count, version < 0 ? nil : version)
    }

    /// Closes the listening connection, so that the loop connects again: for a connection that
    /// stays open but has stopped delivering (its server process stopped, a network that drops
    /// packets without closing).
    func reconnect() {
        guard let live = connection.withLock({ $0 }) else { return }
        listening.store(false, ordering: .relaxed)
        Task { try? await live.close() }
    }

    func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { await self.run() }
        }
    }

    func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    private func run() async {
        var backoff = Duration.milliseconds(100)
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            var opened: PostgresConnection?
            do {
                let live = try await PostgresConnection.connect(configuration: configuration, id: attempt, logger: logger)
                opened = live
                connection.withLock { $0 = live }
                try await live.listen(on: PostgresChangeClock.channel) { notifications in
                    // The clock as LISTEN took effect: every later commit is notified; earlier ones
                    // are what `onResume`'s re-read is for. Nil without the clock's table.
                    let version = try? await live.allRows(PostgresQuery(unsafeSQL: PostgresChangeClock.currentVersionQuery), logger: logger)
                        .first?.decode(Int64.self)
                    resumeVersion.store(version ?? -1, ordering: .relaxed)
                    listening.store(true, ordering: .relaxed)
                    resumes.add(1, ordering: .releasing)
                    if attempt > 1 { logger.notice("listening for PostgreSQL changes again; every page re-reads its data") }
                    backoff = .milliseconds(100)
                    onResume()
                    for try await notification in notifications {
                        let change = PostgresChange(payload: notification.payload)
                        if let change { lastVersion.store(max(lastVersion.load(ordering: .relaxed), change.version), ordering: .relaxed) }
                        onChange(change)
                    }
                }
                if !Task.isCancelled { logger.warning("the PostgreSQL listening connection ended; reconnecting in \(backoff)") }
            } catch {
                if !Task.isCancelled { logger.warning("the PostgreSQL listening connection failed: \(PostgresError(error)); reconnecting in \(backoff)") }
            }
            listening.store(false, ordering: .relaxed)
            connection.withLock { $0 = nil }
            try? await opened?.close()
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
    }
}
