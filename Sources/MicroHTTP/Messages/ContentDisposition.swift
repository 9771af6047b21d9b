/// `Content-Disposition` header values (RFC 6266).
public enum ContentDisposition {
    /// `attachment; filename="…"`, with every byte outside printable ASCII, `"`, `\`, `/` and `%`
    /// replaced by `_` in the quoted name, and, when the name is not plain ASCII, the exact name
    /// too as `filename*=UTF-8''…` (percent-encoded), which browsers prefer.
    ///
    ///     ContentDisposition.attachment(filename: "café.csv")
    ///     // attachment; filename="caf_.csv"; filename*=UTF-8''caf%C3%A9.csv
    public static func attachment(filename: String) -> String {
        var plain = ""
        var encoded = ""
        var isPlain = true
        for byte in filename.utf8 {
            let printable = byte >= 0x20 && byte < 0x7f && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "%")
            if !printable { isPlain = false }
            plain.unicodeScalars.append(printable ? Unicode.Scalar(byte) : "_")
            if isAttributeCharacter(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0f, radix: 16, uppercase: true)
            }
        }
        return "attachment; filename=\"\(plain)\"" + (isPlain ? "" : "; filename*=UTF-8''" + encoded)
    }

    /// RFC 5987's `attr-char`: what `filename*` may hold unencoded.
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$&+-.^_`|~".utf8.contains(byte)
        }
    }
}
