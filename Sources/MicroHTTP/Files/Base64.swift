/// Standard base64 (RFC 4648 §4, with `=` padding), decoded without Foundation.
enum Base64 {
    /// The bytes `text` encodes, or nil when it is not padded base64: a length that is not a multiple
    /// of four, a character outside the alphabet, or `=` anywhere but the last one or two places.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            let isLast = index + 4 == text.count
            let padding = isLast ? (text[index + 3] == pad ? (text[index + 2] == pad ? 2 : 1) : 0) : 0
            var group: UInt32 = 0
            for offset in 0..<4 {
                let character = text[index + offset]
                let value: UInt8
                if offset >= 4 - padding {
                    value = 0
                } else if let decoded = sextet(character) {
                    value = decoded
                } else {
                    return nil
                }
                group = group << 6 | UInt32(value)
            }
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { bytes.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: group)) }
            index += 4
        }
        return bytes
    }

    private static let pad = UInt8(ascii: "=")

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
