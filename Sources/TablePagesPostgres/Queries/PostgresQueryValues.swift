import Foundation
import PostgresNIO
import TableStore
import TableStorePostgres

/// A row of an arbitrary query as the SQL page's values: what ``/TableStore/SQLValue/init(cell:)``
/// reads (integers, reals, text, bytea and booleans as themselves), and besides, since a visitor's
/// query casts nothing: `numeric` as a real when it reads back exactly and else as its text, uuid,
/// json and jsonb as text, dates and timestamps in ISO 8601 (UTC); any other type that is not text
/// (intervals, arrays…) as a note saying to cast it to text, since its binary form is not read here.
enum PostgresQueryValues {
    static func values(of row: PostgresRow) throws -> [SQLValue] {
        try row.map { cell in try value(of: cell) ?? SQLValue(cell: cell) }
    }

    /// The value of a cell of a type that ``/TableStore/SQLValue/init(cell:)`` leaves to the query
    /// to cast; nil for the others.
    private static func value(of cell: PostgresCell) throws -> SQLValue? {
        guard var bytes = cell.bytes else { return nil }
        switch cell.dataType {
        case .int2, .int4, .int8, .float4, .float8, .bytea, .bool:
            return nil
        case .numeric:
            let text = "\(try cell.decode(Decimal.self))"
            if let real = Double(text), "\(Decimal(real))" == text { return .real(real) }
            return .text(text)
        case .uuid:
            return .text(try cell.decode(UUID.self).uuidString.lowercased())
        case .timestamptz, .timestamp, .date:
            return .text(try cell.decode(Date.self).formatted(.iso8601))
        case .json, .jsonb:
            // Binary jsonb is a version byte, then the JSON's text.
            if cell.dataType == .jsonb { _ = bytes.readInteger(as: UInt8.self) }
            return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        default:
            if let text = try? cell.decode(String.self) { return .text(text) }
            return .text("(a value of PostgreSQL type \(cell.dataType): cast it to text, x::text, to see it)")
        }
    }
}
