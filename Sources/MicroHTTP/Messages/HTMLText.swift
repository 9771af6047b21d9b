/// Escaping for small pieces of text placed in HTML: error pages and server-made index pages.
/// Table rendering uses TableKit's byte writer instead; this one is for the odd short string.
public enum HTMLText {
    /// Escapes `&`, `<`, `>`, `"` and `'`, which is enough for element text and quoted attribute values.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3c || $0 == 0x3e || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
