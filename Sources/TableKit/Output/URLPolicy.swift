/// Decides which addresses may be written into `src`/`href` attributes.
///
/// Escaping cannot make `javascript:alert(1)` harmless, so addresses with a scheme other than
/// `http` or `https` are refused. Scheme-less (relative) addresses are allowed.
///
///     URLPolicy.allows("/public/a.png")        // true
///     URLPolicy.allows("JavaScript:alert(1)")  // false
public enum URLPolicy {
    /// Whether `url` is safe to place in an HTML attribute that the browser follows or loads.
    public static func allows(_ url: String) -> Bool {
        var scheme: [UInt8] = []
        for byte in url.utf8 {
            // Browsers ignore ASCII whitespace and control characters inside a scheme
            // ("java\tscript:"), so they must not hide one from this check.
            if byte <= 0x20 { continue }
            switch byte {
            case UInt8(ascii: ":"):
                return isAllowedScheme(scheme)
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return true
            default:
                // ASCII lowercase; other bytes cannot match an allowed scheme either way.
                scheme.append(byte | 0x20)
            }
        }
        return true
    }

    private static func isAllowedScheme(_ scheme: [UInt8]) -> Bool {
        scheme == Array("http".utf8) || scheme == Array("https".utf8)
    }
}
