/// Where the escapers write: TableKit's renderer writes into reserved buffer space, MicroHTTP's
/// log lines and short strings into byte arrays.
///
/// Implementation requirements: the three methods append in call order; the escapers call
/// them with runs of input copied unchanged and with replacements, never anything else.
public protocol ByteSink {
    /// Appends bytes.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends text known at compile time.
    mutating func write(_ text: StaticString)
    /// Appends one byte.
    mutating func write(byte: UInt8)
}

extension Array: ByteSink where Element == UInt8 {
    /// Appends bytes.
    @inlinable
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }

    /// Appends text known at compile time.
    @inlinable
    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends one byte.
    @inlinable
    public mutating func write(byte: UInt8) {
        append(byte)
    }
}

/// Calls `body` with `text`'s UTF-8, in place when the string's storage allows.
@inlinable
func withContiguousUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) {
        return result
    }
    var text = text
    return text.withUTF8(body)
}

/// `text` passed through `transform` (an escaper), or `text` itself when `unchanged` says that
/// its UTF-8 has nothing to transform: the escapers' String forms, for the odd short string.
func transformed(
    _ text: String, unless unchanged: (UnsafeBufferPointer<UInt8>) -> Bool,
    _ transform: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
) -> String {
    withContiguousUTF8(of: text) { input in
        guard !unchanged(input) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(input.count + 16)
        transform(input, &out)
        return String(decoding: out, as: UTF8.self)
    }
}
