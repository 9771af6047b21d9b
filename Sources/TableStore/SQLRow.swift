/// One row a query returned, its columns in the order the query selected them.
///
///     let titles = try session.rows("SELECT id, title FROM todo", []).map { try $0.string(1) }
///
/// Columns are read by position, not name: PostgreSQL folds unquoted names to lower case while
/// SQLite keeps them as written, and positions mean the same on both.
public struct SQLRow: Sendable, Hashable, RandomAccessCollection {
    /// The row's values, in select-list order.
    public let values: [SQLValue]

    /// A row of `values`.
    public init(_ values: [SQLValue]) {
        self.values = values
    }

    /// The first column's position, 0.
    public var startIndex: Int { 0 }
    /// The number of columns.
    public var endIndex: Int { values.count }
    /// The value of the column at `position`, which must be one of the row's.
    public subscript(position: Int) -> SQLValue { values[position] }
    /// The values of the columns in `bounds`.
    public subscript(bounds: Range<Int>) -> ArraySlice<SQLValue> { values[bounds] }

    /// Why a column could not be read as the type asked for.
    public struct ColumnTypeMismatch: Error, CustomStringConvertible {
        /// The column's position.
        public let column: Int
        /// The type asked for.
        public let expected: String
        /// What the column held.
        public let found: SQLValue

        /// For logs.
        public var description: String { "column \(column) is \(found), not \(expected)" }
    }

    private func value(_ column: Int) -> SQLValue {
        column < values.count ? values[column] : .null
    }

    /// The column as a whole number.
    public func int64(_ column: Int) throws -> Int64 {
        switch value(column) {
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case let other: throw ColumnTypeMismatch(column: column, expected: "an integer", found: other)
        }
    }

    /// The column as an `Int`.
    public func int(_ column: Int) throws -> Int {
        Int(try int64(column))
    }

    /// The column as a whole number, or nil when it is NULL.
    public func optionalInt64(_ column: Int) throws -> Int64? {
        value(column).isNull ? nil : try int64(column)
    }

    /// The column as a floating-point number (whole numbers are converted).
    public func double(_ column: Int) throws -> Double {
        switch value(column) {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        case let other: throw ColumnTypeMismatch(column: column, expected: "a number", found: other)
        }
    }

    /// The column as text.
    public func string(_ column: Int) throws -> String {
        guard case .text(let text) = value(column) else {
            throw ColumnTypeMismatch(column: column, expected: "text", found: value(column))
        }
        return text
    }

    /// The column as text, or nil when it is NULL.
    public func optionalString(_ column: Int) throws -> String? {
        value(column).isNull ? nil : try string(column)
    }

    /// The column as a boolean: PostgreSQL's `boolean`, or SQLite's 0 and 1.
    public func bool(_ column: Int) throws -> Bool {
        switch value(column) {
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        case let other: throw ColumnTypeMismatch(column: column, expected: "a boolean", found: other)
        }
    }
}
