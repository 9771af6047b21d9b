import TableKit
import TableStore

/// The ids of a query's rows on a live page, so a re-run patches only the rows that changed.
///
/// When the first column's values are all present and distinct (a key the query selects: an `id`,
/// the column a `GROUP BY` groups by), a row is its first value: a group whose count changes is the
/// same row with a new count. Otherwise a row is its content, and the n-th of equal rows is told
/// apart by n: a changed row is then one row gone and one added.
enum QueryRowIdentity {
    static func ids(of rows: [[SQLValue]]) -> [RowID] {
        let firsts = rows.map { $0.first ?? .null }
        if !firsts.isEmpty, !firsts.contains(.null), Set(firsts).count == firsts.count {
            return firsts.map { RowID("k" + DatabaseValueCoding.encode([$0])) }
        }
        var seen: [String: Int] = [:]
        return rows.map { row in
            let content = DatabaseValueCoding.encode(row)
            let occurrence = seen[content, default: 0]
            seen[content] = occurrence + 1
            return RowID("c" + hash(content) + (occurrence > 0 ? "-\(occurrence)" : ""))
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
