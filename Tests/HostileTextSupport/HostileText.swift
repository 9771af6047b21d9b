import PropertyBased

/// Text that renderers, escapers and cutters must survive, for property-based tests.
///
/// Generated strings are biased towards what breaks them: the characters escapers replace,
/// bytes that look like the start of U+2028, combining marks (a quote followed by one is a
/// single `Character`), control characters, scalars next to the surrogate range,
/// non-characters, flags and joined emoji, markup, and now and then a string long enough to
/// cross the escapers' 16 KiB pieces; the rest are random scalars from every plane.
public enum HostileText {
    /// The pieces generated strings are mostly made of.
    public static let pieces: [String] = [
        "", "\"", "&", "'", "<", ">", "\\", "/", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "\u{20AC}",
        "\u{0301}", "e\u{0301}", "\"\u{0301}", "'\u{0308}", "<\u{0338}", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
        "\u{85}", "\r", "\n", "\r\n", "\t", "\u{FEFF}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{D7FF}",
        "\u{E000}", "\u{10FFFF}", "\\uD800", "\\u0000", "\u{1F1EB}\u{1F1F7}", "\u{1F469}\u{200D}\u{1F467}",
        "\u{200D}", "<script>alert(1)</script>", "&amp;", "</span>", "\"><img src=x>", "]]>", "a", " ", "é", "中",
    ]

    /// Arbitrary strings, biased towards ``pieces``; about one in forty is over 40 KB.
    public static let text = zip(
        zip(Gen.int(in: 0...999), Gen<UInt32>.value(in: 0...0x10FFFF)).array(of: 0...24),
        Gen.int(in: 0...39)
    ).map { parts, stretch in
        var text = ""
        for (code, raw) in parts {
            switch code {
            case 0..<600:
                text += pieces[code % pieces.count]
            case 600..<800:
                text.unicodeScalars.append(Unicode.Scalar(UInt8(32 + code % 95)))
            default:
                // Surrogate values are not scalars; U+FFFD stands in for them.
                text.unicodeScalars.append(Unicode.Scalar(raw) ?? "\u{FFFD}")
            }
        }
        if stretch == 0 {
            let unit = text.isEmpty ? "\"" : text
            text = String(repeating: unit, count: 40_000 / unit.utf8.count + 1)
        }
        return text
    }

    /// `"a"` followed by 500,000 U+0301: one `Character` of 1,000,001 bytes.
    public static let graphemeHeavy = "a" + String(repeating: "\u{0301}", count: 500_000)

    /// Up to `maxParts` parts, each one of ``pieces`` or an arbitrary scalar: a short hostile name,
    /// id or value for a generator that needs many of them.
    public static func short(upTo maxParts: Int, using rng: inout Xoshiro) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maxParts, using: &rng) {
            if Bool.random(using: &rng) {
                text += pieces.randomElement(using: &rng)!
            } else {
                text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &rng)) ?? "\u{FFFD}")
            }
        }
        return text
    }
}
