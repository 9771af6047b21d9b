import Foundation
import PostgresNIO
import TableStore

extension SQLValue {
    /// A PostgreSQL cell as the one value type: NULL as ``/TableStore/SQLValue/null``, integers,
    /// reals, `bytea` and `boolean` as themselves, and any other type as its text (a query that
    /// casts such columns to text, as database pages do, gets text the same way). A cell whose
    /// bytes are no text PostgresNIO decodes is read as its raw bytes taken for UTF-8, never an error.
    public init(cell: PostgresCell) throws {
        guard var bytes = cell.bytes else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .bytea: self = .blob(try cell.decode(Data.self))
        case .bool: self = .bool(try cell.decode(Bool.self))
        default:
            if let text = try? cell.decode(String.self) {
                self = .text(text)
            } else {
                self = .text(bytes.readString(length: bytes.readableBytes) ?? "")
            }
        }
    }
}
