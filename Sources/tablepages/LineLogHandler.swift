import Logging
import MicroHTTP

/// swift-log's handler for `tablepages serve`: each event as one line on standard error, in the
/// format `--log-format` picks, with the same field names as the access log (see ``LogLine``).
///
/// Lines are written at once, one `write(2)` each: besides the access log (which buffers on its own)
/// the server logs a few lines an hour, and those should not wait.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    let output: LogOutput
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    /// The names a line's own fields take; metadata under one of these is renamed `metadata.NAME`.
    private static let reservedNames: Set<String> = ["time", "level", "label", "message", "source"]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = LogLine(format: format)
        line.begin(time: .now, level: event.level, label: label)
        line.message(event.message.description)
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            line.field(Self.reservedNames.contains(name) ? "metadata." + name : name, Self.text(of: value))
        }
        if format == .json { line.field("source", event.source) }
        line.end()
        output.write(line.bytes)
    }

    private static func text(of value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array, .dictionary: value.description
        }
    }
}
