import Logging
import Synchronization

/// Collects what is logged, to check that a failure is logged once and what the line names.
public final class LogRecorder: Sendable {
    private let entries = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])

    /// Creates an empty recorder.
    public init() {}

    /// The messages logged at `level`.
    public func messages(at level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    /// The metadata of the events logged with `message`, in order.
    public func metadata(of message: String) -> [Logger.Metadata] {
        entries.withLock { $0.filter { $0.message == message }.map(\.metadata) }
    }

    /// Every message logged, at any level, in order.
    public var allMessages: [String] {
        entries.withLock { $0.map(\.message) }
    }

    /// A logger that records into this recorder, from `level` up.
    public func logger(from level: Logger.Level = .notice) -> Logger {
        var logger = Logger(label: "tests") { _ in Handler(recorder: self, logLevel: level) }
        logger.logLevel = level
        return logger
    }

    fileprivate func record(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
        entries.withLock { $0.append((level, message, metadata)) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]

        init(recorder: LogRecorder, logLevel: Logger.Level) {
            self.recorder = recorder
            self.logLevel = logLevel
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.record(event.level, event.message.description, event.metadata ?? [:])
        }
    }
}
