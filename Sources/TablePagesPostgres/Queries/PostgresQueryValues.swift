import Foundation
import GRDB
import PostgresNIO

/// A row of an arbitrary query as the SQL page's values: what ``PostgresValues`` reads (integers,
/// reals, text and bytea as themselves), and besides, since a visitor's query casts nothing:
/// booleans as 1 and 0 (as SQLite stores them), `numeric` as a real when it reads back exactly and
/// else as its text, uuid, json and jsonb as text, dates and timestamps in ISO 8601 (UTC); any
/// other type that is not text (intervals, arrays…) as a note saying to cast it to text, since its
/// binary form is not read here.
enum PostgresQueryValues {
    static func values(of row: PostgresRow) throws -> [DatabaseValue] {
        var values = try PostgresValues.values(of: row)
        for (index, cell) in row.enumerated() where cell.bytes != nil {
            if let value = try value(of: cell) { values[index] = value }
        }
        return values
    }

    /// The value of a cell of a type ``PostgresValues`` leaves to the query to cast; nil for the others.
    private static func value(of cell: PostgresCell) throws -> DatabaseValue? {
        switch cell.dataType {
        case .int2, .int4, .int8, .float4, .float8, .bytea:
            return nil
        case .bool:
            return (try cell.decode(Bool.self) ? 1 : 0).databaseValue
        case .numeric:
            let text = "\(try cell.decode(Decimal.self))"
            if let real = Double(text), "\(Decimal(real))" == text { return real.databaseValue }
            return text.databaseValue
        case .uuid:
            return try cell.decode(UUID.self).uuidString.lowercased().databaseValue
        case .timestamptz, .timestamp, .date:
            return try cell.decode(Date.self).formatted(.iso8601).databaseValue
        case .json, .jsonb:
            var bytes = cell.bytes ?? ByteBuffer()
            // Binary jsonb is a version byte, then the JSON's text.
            if cell.dataType == .jsonb { _ = bytes.readInteger(as: UInt8.self) }
            return (bytes.readString(length: bytes.readableBytes) ?? "").databaseValue
        default:
            if let text = try? cell.decode(String.self) { return text.databaseValue }
            return "(a value of PostgreSQL type \(cell.dataType): cast it to text, x::text, to see it)".databaseValue
        }
    }
}
