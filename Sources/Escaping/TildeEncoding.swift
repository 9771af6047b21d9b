/// Datasette's tilde encoding of a name in one URL path segment, and its decoding.
///
/// Every byte of the name's UTF-8 but `A–Z a–z 0–9 _ -` becomes `~XX` (upper-case hex), and a
/// space becomes `+`. Unlike percent-encoding it also encodes `.`, so a table named `x.csv` is
/// `x~2Ecsv` and never reads as the CSV of a table `x`, and its escapes survive proxies that
/// decode `%2F` in paths. Names of letters, digits, `_` and `-` are their own encoding.
///
///     TildeEncoding.encode("table/with/slashes.csv")  // "table~2Fwith~2Fslashes~2Ecsv"
///     TildeEncoding.decode("my+table~2Ejson")         // "my table.json"
public enum TildeEncoding {
    /// `name` tilde-encoded: only `A–Z a–z 0–9 _ - ~ +` in the result, so it needs no further
    /// escaping in a path, a query value or an HTML attribute.
    public static func encode(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in name.utf8 {
            if isSafe(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "~"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name `text` encodes: `~XX` (either case of hex digit) is that byte, `+` a space, and
    /// every other character itself, as Datasette decodes (a `~` without two hex digits stays a
    /// `~`; `%` is not an escape). Nil when the bytes are not UTF-8.
    public static func decode(_ text: String) -> String? {
        // Most names have neither: no copy of their bytes then (a page's name is decoded on every request).
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "+") }) else { return text }
        let bytes = URLComponentEncoding.unescaped(Array(text.utf8), escape: UInt8(ascii: "~"), plusAsSpace: true)
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `byte` stands for itself: `A–Z a–z 0–9 _ -`.
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
