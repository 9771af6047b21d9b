import MicroHTTP
import TableKit

/// Where a page of a section's rows starts, counted from 0: the `_at` query value
/// (``/TableKit/PageContract/Query/at``), which a client sends when the reader drags the
/// scrollbar or jumps to a row far from the rows it has.
struct RowPosition: Equatable, Sendable {
    /// Rows of the section before the first row shown.
    let index: Int

    /// The largest position accepted. A database reads past `index` rows to find the first one
    /// (bounded by the query time limit), so no section this server pages can be longer; a larger
    /// number is a mistake, not a place.
    static let maxIndex = 999_999_999_999

    /// The position `text` spells: 1 to 12 ASCII digits (no sign, space, point or exponent), so at
    /// most ``maxIndex``; nil for anything else.
    static func parse(_ text: String) -> RowPosition? {
        let digits = text.utf8
        // The length bound keeps the arithmetic below from overflowing on a long string.
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return RowPosition(index: value)
    }

    /// The `_at` value of `query`; nil when not given.
    /// - Throws: 400 when it is not a position.
    static func parse(query: [String: String]) throws(HTTPError) -> RowPosition? {
        guard let text = query[PageContract.Query.at] else { return nil }
        guard let position = parse(text) else {
            throw HTTPError(400, "\(PageContract.Query.at) must be a whole number from 0 to \(maxIndex): how many rows of the section come before the first one shown (0 is the first row).")
        }
        return position
    }
}
