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

    /// How many reservations were written past and written again (see ``ByteWriter``): the
    /// output is still correct, but a `max…Count` bound was too small. Tests check that it stays 0.
    private(set) var reservationOverruns = 0

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
        append(maxCount: ByteWriter.maxDecimalCount) { $0.write(value) }
    }

    /// Appends a number: integral values without a fraction ("44"), others in Swift's shortest form.
    public mutating func append(_ value: Double) {
        append(maxCount: ByteWriter.maxNumberCount) { $0.write(value) }
    }

    /// Reserves room for `maxCount` bytes and lets `body` write up to that many straight into the
    /// storage: one capacity check however many pieces it writes (see ``ByteWriter``).
    ///
    /// Writing more is correct but slower: what was written is dropped and `body` runs again with
    /// room for everything it wrote, which is counted in ``reservationOverruns``. `body` must
    /// therefore write the same bytes each time it runs (it only copies and escapes values).
    mutating func append(maxCount: Int, _ body: (inout ByteWriter) -> Void) {
        // At least one byte, so that the reserved space always has an address.
        var reserved = max(maxCount, 1)
        while let needed = append(reserving: reserved, body) {
            reservationOverruns += 1
            reserved = needed
        }
    }

    /// Runs `body` over at least `reserved` bytes at the end and keeps what it wrote when it all
    /// fit; otherwise keeps nothing and returns how many bytes it wanted to write.
    private mutating func append(reserving reserved: Int, _ body: (inout ByteWriter) -> Void) -> Int? {
        var needed: Int?
        #if compiler(>=6.2)
        bytes.append(addingCapacity: reserved) { span in
            span.withUnsafeMutableBufferPointer { space, initializedCount in
                var writer = ByteWriter(start: space.baseAddress.unsafelyUnwrapped, capacity: space.count)
                body(&writer)
                if writer.overflowCount == 0 {
                    initializedCount = writer.count
                } else {
                    needed = writer.count + writer.overflowCount
                }
            }
        }
        #else
        // Without `OutputSpan`, write into scratch space and copy it in with one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: reserved) { space in
            var writer = ByteWriter(start: space.baseAddress.unsafelyUnwrapped, capacity: space.count)
            body(&writer)
            if writer.overflowCount == 0 {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: space[..<writer.count]))
            } else {
                needed = writer.count + writer.overflowCount
            }
        }
        #endif
        return needed
    }

    /// Appends `input` transformed by `write` (an escaper), reserving `expansion` bytes per input
    /// byte. Long input goes in pieces that end on UTF-8 character boundaries, so that it never
    /// reserves many times its size at once and no escaped character is split.
    mutating func append(
        _ input: UnsafeBufferPointer<UInt8>, expansion: Int,
        _ write: (inout ByteWriter, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let pieceLimit = 16 * 1024
        var start = 0
        while start < input.count {
            var end = min(input.count, start + pieceLimit)
            // Continuation bytes look like 0b10xxxxxx: step back to the start of a character.
            while end < input.count && end > start && input[end] & 0xC0 == 0x80 {
                end -= 1
            }
            if end == start {
                // Not UTF-8 at all; any split is as good as another.
                end = min(input.count, start + pieceLimit)
            }
            let piece = UnsafeBufferPointer(rebasing: input[start..<end])
            append(maxCount: piece.count * expansion) { write(&$0, piece) }
            start = end
        }
    }
}
