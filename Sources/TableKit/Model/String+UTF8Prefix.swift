extension String {
    /// The longest prefix that takes at most `maxCount` bytes in UTF-8, for keeping text that
    /// clients send within a bound in bytes.
    ///
    /// The cut falls between characters (grapheme clusters) when the first character fits, and
    /// between Unicode scalars otherwise, so that degenerate text — `"a"` followed by a million
    /// combining accents is one character of 2 MB — still keeps its first bytes. The result is
    /// always valid UTF-8 and never longer than `maxCount` bytes; a string that fits is returned
    /// whole. Counting `Character`s (`prefix(200)`) bounds nothing: one character can be any size.
    ///
    ///     "héllo".prefix(maxUTF8Count: 2)     // "h"  (é takes two bytes)
    ///     "e\u{301}x".prefix(maxUTF8Count: 3) // "e\u{301}"
    public func prefix(maxUTF8Count maxCount: Int) -> Substring {
        let utf8 = self.utf8
        guard utf8.count > maxCount else { return self[...] }
        // The last scalar boundary within the bound: step back over continuation bytes.
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, maxCount))
        while end > utf8.startIndex && UTF8.isContinuation(utf8[end]) {
            end = utf8.index(before: end)
        }
        // Whether there is a character boundary at a position depends only on the scalars before
        // it and the one at it, so walking the characters of the text up to one scalar past `end`
        // finds the true boundaries up to `end` without reading the rest of a huge cluster.
        let window = self[..<unicodeScalars.index(after: end)]
        var cut = startIndex
        var next = startIndex
        repeat {
            next = window.index(after: next)
            if next <= end { cut = next }
        } while next < end
        return self[..<(cut > startIndex ? cut : end)]
    }
}
