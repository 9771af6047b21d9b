import TableKit
import TableStore

/// The ids of a query's rows on a live page, so a re-run patches only the rows that changed.
///
/// When the first column's values are all present, distinct and short (a key the query selects:
/// an `id`, the column a `GROUP BY` groups by), a row is its first value: a group whose count
/// changes is the same row with a new count. Otherwise a row is a hash of its content, and the n-th
/// row of one hash is told apart by n: a changed row is then one row gone and one added. An id
/// stands several times in a page (the row's element, its links), so a value of any length never
/// becomes one: a 3 kB blob as the key made each row 27 kB of HTML.
enum QueryRowIdentity {
    /// The longest encoded first value that is a row's id.
    static let longestKey = 128

    static func ids(of rows: [[SQLValue]]) -> [RowID] {
        let firsts = rows.map { $0.first ?? .null }
        if !firsts.isEmpty, !firsts.contains(.null), Set(firsts).count == firsts.count {
            let keys = firsts.map { DatabaseValueCoding.encode([$0]) }
            if keys.allSatisfy({ $0.utf8.count <= longestKey }) { return keys.map { RowID("k" + $0) } }
        }
        // Counted by hash, not by content: two contents of one hash still get two ids.
        var seen: [String: Int] = [:]
        return rows.map { row in
            let base = "c" + hash(DatabaseValueCoding.encode(row))
            let occurrence = seen[base, default: 0]
            seen[base] = occurrence + 1
            return RowID(base + (occurrence > 0 ? "-\(occurrence)" : ""))
        }
    }

    /// FNV-1a of `text`'s UTF-8, in hex: a short id for a row's content of any length.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return String(value, radix: 16)
    }
}
