import Foundation

/// Base64url without padding (RFC 4648 §5): safe in cookies, URLs and header fields as it is.
enum Base64URL {
    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        Data(bytes).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// The bytes `text` encodes, or nil when it is not unpadded base64url.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy({ isAlphabet($0) }), text.utf8.count % 4 != 1 else { return nil }
        var standard = String(text).replacing("-", with: "+").replacing("_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
