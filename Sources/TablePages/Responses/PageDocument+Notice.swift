import Escaping
import TableKit

extension PageDocument {
    /// The attribute a form that chooses the page's variant carries (a database page's filter
    /// form): a page whose query was refused shows why right before it.
    static let variantFormAttribute = "data-variant-form"

    /// `fragment` (a rendered table) with `<p class="tp-notice" role="alert">{message}</p>` before
    /// its first form that carries ``variantFormAttribute``, where the reader puts the query right,
    /// or at the start of the table when it has no such form.
    static func withNotice(_ message: String, in fragment: [UInt8]) -> [UInt8] {
        let notice = Array(("<p class=\"tp-notice\" role=\"alert\">" + HTMLEscaping.escape(message) + "</p>").utf8)
        let position: Int
        if let marker = firstRange(of: Array(variantFormAttribute.utf8), in: fragment[...]),
           let form = lastRange(of: Array("<form".utf8), in: fragment[..<marker.lowerBound]) {
            position = form.lowerBound
        } else if fragment.starts(with: "<main".utf8), let end = fragment.firstIndex(of: UInt8(ascii: ">")) {
            position = end + 1
        } else {
            position = 0
        }
        return Array(fragment[..<position]) + notice + Array(fragment[position...])
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var start = haystack.startIndex
        while start + needle.count <= haystack.endIndex {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
            start += 1
        }
        return nil
    }

    private static func lastRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var start = haystack.endIndex - needle.count
        while start >= haystack.startIndex {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
            start -= 1
        }
        return nil
    }
}
