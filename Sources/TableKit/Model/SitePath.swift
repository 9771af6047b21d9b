/// Which addresses a table may lead a person to: paths on the site that serves it, so that data
/// can never turn a page into an open redirect or a link elsewhere.
enum SitePath {
    /// Whether `location` is a path on this site: one leading "/" ("//host" and "/\\host" are other
    /// sites to a browser) and no control characters.
    static func isOnThisSite(_ location: String) -> Bool {
        let bytes = Array(location.utf8.prefix(2))
        guard bytes.first == UInt8(ascii: "/"),
              bytes.count < 2 || (bytes[1] != UInt8(ascii: "/") && bytes[1] != UInt8(ascii: "\\")) else { return false }
        return !location.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }
    }
}
