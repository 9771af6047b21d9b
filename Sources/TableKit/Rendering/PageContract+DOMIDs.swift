// Row and section ids are data ("Science fiction", `a"b`, "日本") but DOM ids may hold no
// whitespace, and ids also appear in `#fragment` links and CSS. So a DOM id is a prefix and the
// id encoded into a small alphabet: ASCII letters, digits and `-` stay (so `todo-3` stays
// `row-todo-3`), every other UTF-8 byte becomes `_` and two uppercase hex digits (`_` itself is
// `_5F`). Decoding every `_XX` gives the id back, so different ids give different DOM ids.
//
// A section's header is `section-{id}-header`; so that a section named `a-header` cannot take
// the id of section `a`'s header, the `-` of a trailing `-header` is always encoded (`_2D`), and
// no encoded id ends in `-header`. `Public/table-pages.js` (`domID`) applies the same rule.
extension PageContract {
    /// The DOM id of a row's element: `row-{encoded id}`.
    ///
    ///     PageContract.domID(forRow: RowID("todo 3"))  // "row-todo_203"
    public static func domID(forRow row: RowID) -> String {
        "row-" + encodedDOMIDPart(row.rawValue)
    }

    /// The DOM id of a section's element: `section-{encoded id}`; links to the section index go here.
    public static func domID(forSection section: SectionID) -> String {
        "section-" + encodedDOMIDPart(section.rawValue)
    }

    /// The DOM id of a section's header title: `section-{encoded id}-header`.
    public static func headerDOMID(forSection section: SectionID) -> String {
        domID(forSection: section) + "-header"
    }

    /// The row whose ``domID(forRow:)`` is `domID`, or nil when no row's is.
    public static func rowID(fromDOMID domID: String) -> RowID? {
        guard domID.hasPrefix("row-") else { return nil }
        return decodedDOMIDPart(domID.dropFirst(4)).map { RowID($0) }
    }

    /// The section whose ``domID(forSection:)`` is `domID`, or nil when no section's is.
    public static func sectionID(fromDOMID domID: String) -> SectionID? {
        guard domID.hasPrefix("section-") else { return nil }
        return decodedDOMIDPart(domID.dropFirst(8)).map { SectionID($0) }
    }

    /// The most bytes the encoded part of a DOM id takes for `id`: three per byte.
    static func maxDOMIDPartCount(_ id: String) -> Int {
        id.utf8.count * 3
    }

    static func encodedDOMIDPart(_ id: String) -> String {
        var out = OutputBuffer(capacity: maxDOMIDPartCount(id))
        out.append(maxCount: maxDOMIDPartCount(id)) { $0.writeDOMIDPart(id) }
        return out.string
    }

    private static func decodedDOMIDPart(_ part: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "_"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case _ where isKeptInDOMID(byte):
                bytes.append(byte)
            default:
                return nil
            }
        }
        guard let id = String(validating: bytes, as: UTF8.self),
              encodedDOMIDPart(id).utf8.elementsEqual(part.utf8) else { return nil }
        return id
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `byte` stands for itself in a DOM id: ASCII letters, digits and `-`.
    static func isKeptInDOMID(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}

extension ByteWriter {
    /// Writes `id` encoded for a DOM id (see ``PageContract``), which needs no further escaping
    /// in HTML. Reserve ``PageContract/maxDOMIDPartCount(_:)``.
    mutating func writeDOMIDPart(_ id: String) {
        withUTF8(of: id) { input in
            let suffix: StaticString = "-header"
            // Encode the `-` of a trailing "-header" (see PageContract+DOMIDs.swift).
            let hasHeaderSuffix = input.count >= suffix.utf8CodeUnitCount
                && suffix.withUTF8Buffer { UnsafeBufferPointer(rebasing: input[(input.count - $0.count)...]).elementsEqual($0) }
            let end = hasHeaderSuffix ? input.count - suffix.utf8CodeUnitCount : input.count
            let hex: StaticString = "0123456789ABCDEF"
            var runStart = 0
            for index in 0..<end {
                let byte = input[index]
                if PageContract.isKeptInDOMID(byte) { continue }
                // Ids are mostly letters, digits and dashes: copy runs in bulk.
                write(UnsafeBufferPointer(rebasing: input[runStart..<index]))
                write(byte: UInt8(ascii: "_"))
                hex.withUTF8Buffer { digits in
                    write(byte: digits[Int(byte >> 4)])
                    write(byte: digits[Int(byte & 0x0F)])
                }
                runStart = index + 1
            }
            write(UnsafeBufferPointer(rebasing: input[runStart..<end]))
            if hasHeaderSuffix {
                write("_2Dheader")
            }
        }
    }
}

extension OutputBuffer {
    /// Appends `id` encoded for a DOM id (see ``PageContract``).
    mutating func appendDOMIDPart(_ id: String) {
        append(maxCount: PageContract.maxDOMIDPartCount(id)) { $0.writeDOMIDPart(id) }
    }
}
