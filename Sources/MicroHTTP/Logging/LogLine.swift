import Escaping
import Logging

/// Builds log lines, one after another, into a byte buffer, in a ``LogFormat``.
///
///     var line = LogLine(format: .json)
///     line.begin(time: .now, level: .info, label: "tablepages")
///     line.message("listening")
///     line.field("port", 8080)
///     line.end()
///     LogOutput.standardError.write(line.bytes)
///
/// Text: `2026-11-22T10:20:35.123Z info tablepages: listening port=8080`; a field value with a
/// space, `=`, a quote or anything escaped is quoted. JSON: one object per line,
/// `{"time":…,"level":…,"label":…,"message":…,"port":8080}`. Either way, text from outside
/// (a request path, a message) is escaped as in a JSON string: quotes, backslashes, control
/// characters and the Unicode line separators, so a line stays one line whatever it holds.
public struct LogLine: Sendable {
    /// The format lines are written in.
    public let format: LogFormat
    /// The lines built so far.
    public private(set) var bytes: [UInt8] = []
    // The 20 bytes of the last second written (`YYYY-MM-DDTHH:MM:SS.`): an access log writes
    // thousands of lines per second, and converting each to a calendar date would be most of its cost.
    private var cachedSecond = Int.min
    private var cachedPrefix: [UInt8] = []

    /// An empty buffer for lines in `format`.
    public init(format: LogFormat) {
        self.format = format
    }

    /// Empties the buffer, keeping its memory for the next lines.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Starts a line: its time, level and the logger's label.
    public mutating func begin(time: LogTime, level: Logger.Level, label: String) {
        switch format {
        case .text:
            appendTime(time)
            bytes.append(UInt8(ascii: " "))
            appendASCII(level.rawValue)
            bytes.append(UInt8(ascii: " "))
            appendEscaped(label)
            bytes.append(UInt8(ascii: ":"))
        case .json:
            appendASCII(#"{"time":""#)
            appendTime(time)
            appendASCII(#"","level":""#)
            appendASCII(level.rawValue)
            appendASCII(#"","label":""#)
            appendEscaped(label)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Adds the message, escaped.
    public mutating func message(_ text: String) {
        beginMessage()
        appendToMessage(text)
        endMessage()
    }

    /// Opens the message, to be built by ``appendToMessage(_:)`` and closed by ``endMessage()``.
    public mutating func beginMessage() {
        switch format {
        case .text: bytes.append(UInt8(ascii: " "))
        case .json: appendASCII(#","message":""#)
        }
    }

    /// Adds `text` to the open message, escaped.
    public mutating func appendToMessage(_ text: String) {
        appendEscaped(text)
    }

    /// Adds one ASCII character to the open message (a separator: nothing to escape).
    mutating func appendToMessage(ascii byte: UInt8) {
        bytes.append(byte)
    }

    /// Adds a whole number to the open message.
    mutating func appendToMessage(integer value: Int) {
        appendInteger(value)
    }

    /// Adds `microseconds` as milliseconds with two decimals to the open message.
    mutating func appendToMessage(microseconds: Int) {
        appendMilliseconds(microseconds)
    }

    /// Closes the message.
    public mutating func endMessage() {
        if format == .json { bytes.append(UInt8(ascii: "\"")) }
    }

    /// Adds a field with a text value.
    public mutating func field(_ name: String, _ value: String) {
        appendFieldName(name)
        switch format {
        case .text:
            if Self.isBare(value) {
                appendASCII(value)
            } else {
                bytes.append(UInt8(ascii: "\""))
                appendEscaped(value)
                bytes.append(UInt8(ascii: "\""))
            }
        case .json:
            bytes.append(UInt8(ascii: "\""))
            appendEscaped(value)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Adds a field with a whole number.
    public mutating func field(_ name: String, _ value: Int) {
        appendFieldName(name)
        appendInteger(value)
    }

    /// Adds a field with `microseconds` written as milliseconds with two decimals (`12.34`).
    public mutating func field(_ name: String, microseconds: Int) {
        appendFieldName(name)
        appendMilliseconds(microseconds)
    }

    /// Ends the line.
    public mutating func end() {
        if format == .json { bytes.append(UInt8(ascii: "}")) }
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: - Pieces

    /// `12.34` for 12,345 microseconds.
    mutating func appendMilliseconds(_ microseconds: Int) {
        let value = max(0, microseconds)
        appendInteger(value / 1000)
        bytes.append(UInt8(ascii: "."))
        appendDigits(value % 1000 / 10, count: 2, to: &bytes)
    }

    mutating func appendInteger(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            // Int.min has no positive counterpart; its magnitude is spelled out.
            guard value != .min else { appendASCII("9223372036854775808"); return }
            appendInteger(-value)
            return
        }
        var digits = 1
        var limit = 10
        while value >= limit, digits < 19 {
            digits += 1
            limit &*= 10
        }
        appendDigits(value, count: digits, to: &bytes)
    }

    private mutating func appendFieldName(_ name: String) {
        switch format {
        case .text:
            bytes.append(UInt8(ascii: " "))
            appendEscaped(name)
            bytes.append(UInt8(ascii: "="))
        case .json:
            appendASCII(#",""#)
            appendEscaped(name)
            appendASCII(#"":"#)
        }
    }

    private mutating func appendTime(_ time: LogTime) {
        if time.seconds != cachedSecond {
            cachedPrefix.removeAll(keepingCapacity: true)
            LogTime(seconds: time.seconds, milliseconds: 0).append(to: &cachedPrefix)
            cachedPrefix.removeLast(4)  // "000Z"
            cachedSecond = time.seconds
        }
        bytes.append(contentsOf: cachedPrefix)
        appendDigits(min(999, max(0, time.milliseconds)), count: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private mutating func appendASCII(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Whether a text-format field value can go without quotes: nonempty, and nothing to escape,
    /// no space, `=` or quote.
    static func isBare(_ value: String) -> Bool {
        guard !value.isEmpty else { return false }
        for byte in value.utf8 {
            // Visible ASCII except quote, backslash and `=`; anything else (including UTF-8) is quoted.
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "=") else {
                return false
            }
        }
        return true
    }

    /// Appends `text` escaped as in a JSON string (``/Escaping/JSONEscaping``), without the quotes, so
    /// control characters, C1 and the Unicode line separators cannot break a line.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { JSONEscaping.escape($0, into: &bytes) }
    }
}
