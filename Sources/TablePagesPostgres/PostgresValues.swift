import TableStore
import Foundation
import GRDB
import PostgresNIO

/// PostgreSQL values as the pages' values (GRDB's `DatabaseValue`), and back as text to bind.
enum PostgresValues {
    /// A row's cells: integers, reals, text and bytea as themselves, NULL as NULL; any other type
    /// arrives as text because the query casts it (``/TableStore/SQLDialect``), and is
    /// read as text should one slip through.
    static func values(of row: PostgresRow) throws -> [DatabaseValue] {
        try row.map { cell in
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return try cell.decode(Int64.self).databaseValue
            case .float4, .float8: return try cell.decode(Double.self).databaseValue
            case .bytea: return try cell.decode(Data.self).databaseValue
            default:
                if let text = try? cell.decode(String.self) { return text.databaseValue }
                var bytes = cell.bytes ?? ByteBuffer()
                return (bytes.readString(length: bytes.readableBytes) ?? "").databaseValue
            }
        }
    }

    /// The text PostgreSQL reads back as `value` once cast to its column's type; nil for NULL.
    /// Reals use Swift's shortest round-tripping spelling (`inf`, `nan` included, which
    /// PostgreSQL's `float8` input accepts), blobs `bytea`'s hex format.
    static func text(of value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let integer): return String(integer)
        case .double(let real): return String(real)
        case .string(let text): return text
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
