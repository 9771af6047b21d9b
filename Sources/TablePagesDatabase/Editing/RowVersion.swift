import TableStore

/// What an editor saw of a row, in one short token: a 64-bit FNV-1a hash of the row's values as
/// the table's writer reads them, in column order, each with its kind. The edit form carries it
/// (`_version`); an edit or a delete is made only when the row still hashes to it (then the
/// writer checks, in its transaction, that the row is still the one just read), so a change
/// made in between is refused with 409 instead of being overwritten.
///
/// Not a secret and not a defence: whoever may write may send any token. It only tells two
/// states of a row apart, by chance wrongly once in 2⁶⁴.
///
///     RowVersion(["id": .integer(1), "name": .text("Tea")], columns: ["id", "name"]).token  // "9c1e…" (16 hex digits)
struct RowVersion: Hashable, Sendable {
    /// The hash, as 16 lowercase hexadecimal digits.
    let token: String

    /// The version of `row` (a writer's row: column → value), over `columns` in order; a column the
    /// row lacks counts as absent, unlike NULL.
    init(_ row: [String: SQLValue], columns: [String]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        func mix(_ bytes: some Sequence<UInt8>) {
            var count: UInt64 = 0
            for byte in bytes {
                mix(byte)
                count += 1
            }
            // The length ends each part, so that no two rows' parts run together alike.
            for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
        }
        for column in columns {
            mix(column.utf8)
            switch row[column] {
            case nil: mix(0)
            case .null?: mix(1)
            case .integer(let value)?:
                mix(2)
                mix(String(value).utf8)
            case .real(let value)?:
                mix(3)
                mix(String(value.bitPattern).utf8)
            case .text(let value)?:
                mix(4)
                mix(value.utf8)
            case .blob(let value)?:
                mix(5)
                mix(value)
            case .bool(let value)?:
                mix(value ? 6 : 7)
            }
        }
        let digits = String(hash, radix: 16)
        token = String(repeating: "0", count: 16 - digits.count) + digits
    }
}
