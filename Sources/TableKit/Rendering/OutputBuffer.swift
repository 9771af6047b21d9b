/// A growable byte buffer that renderers write into; reuse one across renders to keep its capacity.
///
/// Markup is appended as `StaticString`s and escaped text, never by concatenating Strings.
///
///     var out = OutputBuffer()
///     out.append("<p>")
///     out.appendEscapedHTML(userText)
///     out.append("</p>")
///     send(out.bytes)
///     out.removeAll() // keeps the capacity for the next render
public struct OutputBuffer: Sendable {
    /// The bytes written so far (UTF-8).
    public private(set) var bytes: [UInt8]

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written.
    public var count: Int { bytes.count }

    /// Whether nothing has been written.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The bytes decoded as UTF-8, for tests and logs; servers send ``bytes`` directly.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends trusted markup known at compile time.
    public mutating func append(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string without escaping; only for text that is already safe in its context.
    public mutating func appendUnescaped(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends raw bytes.
    public mutating func append(contentsOf other: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends the bytes of another buffer.
    public mutating func append(_ other: OutputBuffer) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Appends an integer in decimal, without allocating a String.
    public mutating func append(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = value.magnitude
        // Digits come out least significant first, so fill a scratch area from its end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = digits.count
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Appends a number: integral values without a fraction ("44"), others in Swift's shortest form.
    public mutating func append(_ value: Double) {
        // `rounded()` would need libm, which a Foundation-free target does not link.
        if value.isFinite, abs(value) < 1e15, Double(Int(value)) == value {
            append(Int(value))
        } else if value.isFinite {
            appendUnescaped(String(value))
        } else {
            // JSON has no infinity or NaN; 0 keeps the output valid.
            append(0)
        }
    }
}
