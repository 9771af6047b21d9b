extension OutputBuffer {
    /// Appends text percent-encoded for one URL path segment or query value.
    ///
    /// Keeps only RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), so the result is also
    /// safe inside an HTML attribute without further escaping.
    ///
    ///     out.appendPercentEncoded("a b/c") // a%20b%2Fc
    public mutating func appendPercentEncoded(_ text: String) {
        withUTF8(of: text) { input in
            append(input, expansion: 3) { $0.writePercentEncoded(utf8: $1) }
        }
    }
}
