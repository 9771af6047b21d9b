import TableStore

/// The pages' values as text to bind, which the pages' SQL casts to each column's type
/// (``/TableStore/SQLDialect``), so that one text parameter serves PostgreSQL's many types.
/// (Rows come back through ``/TableStore/SQLValue/init(cell:)``.)
enum PostgresValues {
    /// The text PostgreSQL reads back as `value` once cast to its column's type; nil for NULL.
    /// Reals use Swift's shortest round-tripping spelling (`inf`, `nan` included, which
    /// PostgreSQL's `float8` input accepts), blobs `bytea`'s hex format, booleans `true`/`false`.
    static func text(of value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .blob(let data):
            let digits = Array("0123456789abcdef".utf8)
            var hex = [UInt8]("\\x".utf8)
            hex.reserveCapacity(2 + data.count * 2)
            for byte in data {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0xf)])
            }
            return String(decoding: hex, as: UTF8.self)
        }
    }
}
