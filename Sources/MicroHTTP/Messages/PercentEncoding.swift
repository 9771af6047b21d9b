import Escaping

/// Percent-decoding and -encoding of URL components, done on UTF-8 bytes without Foundation.
public enum PercentEncoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`), or returns nil when an escape is
    /// malformed or the result is not valid UTF-8, so callers can answer 400 instead of guessing
    /// (``/Escaping/URLComponentEncoding/decode(_:plusAsSpace:)``).
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String? {
        URLComponentEncoding.decode(text, plusAsSpace: plusAsSpace)
    }

    /// Decodes a whole string; see ``decode(_:plusAsSpace:)-(Substring,_)``.
    public static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        decode(text[...], plusAsSpace: plusAsSpace)
    }

    /// Decodes keeping a malformed escape as it is and replacing bytes that are not UTF-8
    /// (``/Escaping/URLComponentEncoding/decodeLeniently(_:plusAsSpace:)``).
    public static func decodeLeniently(_ text: String, plusAsSpace: Bool = false) -> String {
        URLComponentEncoding.decodeLeniently(text[...], plusAsSpace: plusAsSpace)
    }

    /// Encodes everything but RFC 3986 unreserved characters, so the result is safe as one path
    /// segment or one query value (``/Escaping/URLComponentEncoding``).
    ///
    ///     PercentEncoding.encode("a b/c")   // "a%20b%2Fc"
    public static func encode(_ text: String) -> String {
        URLComponentEncoding.encode(text)
    }
}
