import Escaping

/// Writes bytes into space reserved at the end of an ``OutputBuffer`` by
/// `OutputBuffer.append(maxCount:_:)`.
///
/// Each `Array.append` checks uniqueness and capacity and updates the count, which costs more
/// than copying a short piece of markup; a row is dozens of such pieces. A writer pays for one
/// reservation and then copies each piece with a single bounds check.
///
/// Callers reserve an upper bound: the `max…Count` helpers give one per piece. A bound that turns
/// out too small costs speed, never correctness: the writer stops writing, counts what did not
/// fit (``overflowCount``), and the buffer runs the writing again with room for all of it. No
/// content can make a render trap or write out of bounds, whatever the reservation said.
struct ByteWriter {
    private let start: UnsafeMutablePointer<UInt8>
    // Lowered to `count` on the first overflow, so that every later piece, however small, is
    // counted rather than written: the bytes written stay a prefix of the output.
    private var capacity: Int
    /// The number of bytes written into the reserved space.
    private(set) var count = 0
    /// The number of bytes that did not fit and were not written; 0 when everything fit.
    private(set) var overflowCount = 0

    /// A writer over `capacity` uninitialized bytes at `start`.
    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    // MARK: Bounds

    /// The most bytes ``write(_:)-(Int)`` writes.
    static let maxDecimalCount = 20
    /// The most bytes ``write(_:)-(Double)`` writes: Swift's shortest form of any finite
    /// `Double` ("-2.2250738585072014e-308") is 24 bytes.
    static let maxNumberCount = 32

    /// The most bytes `text` can take once escaped for HTML or JSON: no escape sequence is more
    /// than six times the bytes it replaces (`"` → `&quot;`, `<` → `\u003c`).
    static func maxEscapedCount(_ text: String) -> Int {
        text.utf8.count * max(HTMLEscaping.maxExpansion, JSONEscaping.maxExpansion)
    }

    /// The most bytes `text` takes percent-encoded: three per byte.
    static func maxPercentEncodedCount(_ text: String) -> Int {
        text.utf8.count * 3
    }

    // MARK: Writing

    /// Copies bytes.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        guard length <= capacity &- count else {
            overflow(by: length)
            return
        }
        let target = UnsafeMutableRawPointer(start + count)
        // Most pieces are a few bytes of markup or a run between escapes, for which a call to
        // memcpy costs more than the copy: move 4 to 16 bytes as two (overlapping) words instead.
        let raw = UnsafeRawPointer(source)
        if length >= 8 && length <= 16 {
            target.storeBytes(of: raw.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(of: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self),
                              toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4 && length < 8 {
            target.storeBytes(of: raw.loadUnaligned(as: UInt32.self), as: UInt32.self)
            target.storeBytes(of: raw.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self),
                              toByteOffset: length - 4, as: UInt32.self)
        } else {
            target.copyMemory(from: source, byteCount: length)
        }
        count += length
    }

    /// Copies markup known at compile time.
    mutating func write(_ markup: StaticString) {
        markup.withUTF8Buffer { write($0) }
    }

    /// Writes one byte.
    mutating func write(byte: UInt8) {
        guard count < capacity else {
            overflow(by: 1)
            return
        }
        (start + count).initialize(to: byte)
        count += 1
    }

    /// Counts bytes that do not fit the reservation, and closes the reservation so that no
    /// later piece is written after a missing one.
    @inline(never)
    private mutating func overflow(by length: Int) {
        capacity = count
        overflowCount += length
    }

    /// Writes an integer in decimal, without allocating a String.
    mutating func write(_ value: Int) {
        if value < 0 {
            write(byte: UInt8(ascii: "-"))
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
            write(UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Writes a number: integral values without a fraction ("44"), others in Swift's shortest form.
    mutating func write(_ value: Double) {
        // `rounded()` would need libm, which a Foundation-free target does not link.
        if value.isFinite, abs(value) < 1e15, Double(Int(value)) == value {
            write(Int(value))
        } else if value.isFinite {
            write(utf8Of: String(value))
        } else {
            // JSON has no infinity or NaN; 0 keeps the output valid.
            write(0)
        }
    }

    /// Copies a string's UTF-8 without escaping; only for text already safe in its context.
    mutating func write(utf8Of text: String) {
        withUTF8(of: text) { write($0) }
    }
}

/// Calls `body` with the UTF-8 of `text`, in place when the string's storage allows.
func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) {
        return result
    }
    var text = text
    return text.withUTF8(body)
}
