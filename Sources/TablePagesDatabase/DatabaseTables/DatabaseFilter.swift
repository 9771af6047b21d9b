import TableStore
import Foundation

/// One condition a database page's rows must meet: `column operator value`, from a query
/// parameter in Datasette's spelling (`price__gte=10`) or this project's (`category=books`, an
/// exact match).
struct DatabaseFilter: Sendable, Hashable {
    /// How the column is compared with the value; the raw value is the suffix after `__`.
    enum Operator: String, Sendable, CaseIterable {
        /// Equal to the value (`col=value` or `col__exact=value`).
        case exact
        /// Not equal to the value; NULL is not equal to anything.
        case not
        /// Text containing the value.
        case contains
        /// Text starting with the value.
        case startswith
        /// Text ending with the value.
        case endswith
        /// Greater than the value.
        case gt
        /// Greater than or equal to the value.
        case gte
        /// Less than the value.
        case lt
        /// Less than or equal to the value.
        case lte
        /// One of a comma-separated list of values.
        case `in`
        /// None of a comma-separated list of values.
        case notin
        /// NULL (the value is ignored).
        case isnull
        /// Not NULL (the value is ignored).
        case notnull
        /// NULL or empty text (the value is ignored).
        case isblank
        /// Neither NULL nor empty text (the value is ignored).
        case notblank
        /// `LIKE` the value as a pattern (`%` any text, `_` any character).
        case like
        /// Not `LIKE` the value as a pattern.
        case notlike
        /// SQLite's `GLOB` with the value as a pattern (`*`, `?`, `[…]`; case matters).
        case glob
        /// A date or time whose day (SQLite's `date()`) is the value.
        case date
        /// A JSON array (or object) with the value among its elements.
        case arraycontains
        /// A JSON array (or object) without the value among its elements.
        case arraynotcontains

        /// Whether the operator ignores the value (a query gives it as `1`).
        var takesNoValue: Bool { [.isnull, .notnull, .isblank, .notblank].contains(self) }

        /// Whether only SQLite can run it: GLOB, `date()` and `json_each()` are SQLite's.
        var isSQLiteOnly: Bool { [.glob, .date, .arraycontains, .arraynotcontains].contains(self) }
    }

    /// The column, in the schema's spelling.
    var column: String
    /// The comparison.
    var comparison: Operator
    /// The value as given in the query (a comma-separated list for `in` and `notin`).
    var value: String
}

extension DatabaseFilter {
    /// The most values an `in` or `notin` list may hold; a longer list is a 400.
    static let maxListCount = 100

    /// The filter as an SQL term in `schema`'s dialect: the column quoted, the value bound (see
    /// ``bound(_:affinity:)``; in PostgreSQL, the text cast to the column's type).
    ///
    /// The terms mean what SQL means, as in Datasette: a comparison with NULL is not true, so
    /// `not`, `notin`, `gt`… leave out the rows whose column is NULL; `isnull` finds them.
    /// `contains`, `startswith` and `endswith` are `LIKE` with `%` and `_` in the value escaped,
    /// so they match those characters themselves, and they see a number as its text; SQLite's
    /// `LIKE` ignores the case of ASCII letters only, PostgreSQL's `ILIKE` that of every letter.
    func clause(in schema: DatabaseTableSchema) -> SQLClause {
        let column = SQLIdentifier.quoted(self.column)
        let placeholder = schema.dialect.placeholder(type: schema.columnTypes[self.column])
        let bind = { (text: String) -> SQLValue in
            schema.dialect == .sqlite ? Self.bound(text, affinity: schema.affinity(of: self.column)) : .text(text)
        }
        let like = { (pattern: String) in SQLClause(sql: schema.dialect.like(column), arguments: [.text(pattern)]) }
        switch comparison {
        case .exact: return SQLClause(sql: "\(column) = \(placeholder)", arguments: [bind(value)])
        case .not: return SQLClause(sql: "\(column) <> \(placeholder)", arguments: [bind(value)])
        case .gt: return SQLClause(sql: "\(column) > \(placeholder)", arguments: [bind(value)])
        case .gte: return SQLClause(sql: "\(column) >= \(placeholder)", arguments: [bind(value)])
        case .lt: return SQLClause(sql: "\(column) < \(placeholder)", arguments: [bind(value)])
        case .lte: return SQLClause(sql: "\(column) <= \(placeholder)", arguments: [bind(value)])
        case .contains: return like("%" + Self.escapedForLike(value) + "%")
        case .startswith: return like(Self.escapedForLike(value) + "%")
        case .endswith: return like("%" + Self.escapedForLike(value))
        case .isnull: return SQLClause(sql: "\(column) IS NULL", arguments: [])
        case .notnull: return SQLClause(sql: "\(column) IS NOT NULL", arguments: [])
        case .isblank: return SQLClause(sql: "(\(column) IS NULL OR \(schema.dialect.asText(column)) = '')", arguments: [])
        case .notblank: return SQLClause(sql: "(\(column) IS NOT NULL AND \(schema.dialect.asText(column)) <> '')", arguments: [])
        case .like: return SQLClause(sql: "\(schema.dialect.asText(column)) LIKE ?", arguments: [.text(value)])
        case .notlike: return SQLClause(sql: "\(schema.dialect.asText(column)) NOT LIKE ?", arguments: [.text(value)])
        // The SQLite-only operators are refused for PostgreSQL when the query is resolved.
        case .glob: return SQLClause(sql: "\(column) GLOB ?", arguments: [.text(value)])
        case .date: return SQLClause(sql: "date(\(column)) = ?", arguments: [.text(value)])
        // A value that is not JSON matches neither: json_each would fail the whole read, and
        // SQLite may run it before (or without) the AND's json_valid.
        case .arraycontains, .arraynotcontains:
            let elements = "SELECT value FROM json_each(CASE WHEN json_valid(\(column)) THEN \(column) ELSE '[]' END)"
            let negation = comparison == .arraynotcontains ? "NOT " : ""
            return SQLClause(sql: "(json_valid(\(column)) AND ? \(negation)IN (\(elements)))", arguments: [.text(value)])
        case .in, .notin:
            // The value was checked when the variant was resolved.
            let values = (Self.listValues(value) ?? []).map(bind)
            if values.isEmpty, schema.dialect == .postgresql {
                // PostgreSQL has no empty list; SQLite's `IN ()` is false and `NOT IN ()` true, NULL or not.
                return SQLClause(sql: comparison == .notin ? "TRUE" : "FALSE", arguments: [])
            }
            let negation = comparison == .notin ? "NOT " : ""
            return SQLClause(sql: "\(column) \(negation)IN (\(Array(repeating: placeholder, count: values.count).joined(separator: ", ")))", arguments: values)
        }
    }

    /// `text` with `\`, `%` and `_` escaped by `\`, to match itself in a `LIKE … ESCAPE '\'`.
    static func escapedForLike(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }

    /// The value to bind for `text` compared with a column of `affinity`. SQLite itself turns a
    /// number-looking text into a number for INTEGER, REAL and NUMERIC columns, and keeps text for
    /// TEXT columns; a column without a declared type (BLOB affinity) converts nothing, so there a
    /// text that reads as a number (``number(_:)``) is bound as that number: `?x__gt=5` on such
    /// a column compares numbers with 5, as it would on a numeric column.
    static func bound(_ text: String, affinity: ColumnAffinity) -> SQLValue {
        if affinity == .blob, let number = number(text) { return number }
        return .text(text)
    }

    /// The number `text` spells as an SQL literal would, ignoring spaces around it: an integer
    /// that fits 64 bits, else a finite decimal like `-1.5`, `.5` or `2e3`; nil otherwise (hex,
    /// `inf`, `nan` and other words stay text).
    static func number(_ text: String) -> SQLValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let integer = Int64(trimmed) { return .integer(integer) }
        guard isDecimalLiteral(trimmed.utf8), let real = Double(trimmed), real.isFinite else { return nil }
        return .real(real)
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    private static func isDecimalLiteral(_ bytes: String.UTF8View) -> Bool {
        var index = bytes.startIndex
        func take(_ accepted: (UInt8) -> Bool) -> Int {
            var count = 0
            while index != bytes.endIndex, accepted(bytes[index]) { index = bytes.index(after: index); count += 1 }
            return count
        }
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
        var digits = take(isDigit)
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            digits += take(isDigit)
        }
        guard digits > 0 else { return false }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if index != bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
            guard take(isDigit) > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}

extension DatabaseFilter {
    /// The values of an `in`/`notin` list as Datasette reads them: a JSON array of strings and
    /// numbers when `value` starts with `[` (so values may hold commas), else the comma-separated
    /// parts with the spaces around each trimmed; nil when the JSON is not such an array.
    static func listValues(_ value: String) -> [String]? {
        guard value.hasPrefix("[") else {
            return value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return try? JSONDecoder().decode([ListElement].self, from: Data(value.utf8)).map(\.text)
    }

    /// The one spelling of a list: comma-separated when that reads back the same, else a JSON array.
    static func canonicalList(_ values: [String]) -> String {
        let plain = !values.isEmpty && !(values.first?.hasPrefix("[") ?? false) && values.allSatisfy {
            !$0.contains(",") && $0 == $0.trimmingCharacters(in: .whitespaces)
        }
        if plain { return values.joined(separator: ",") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(values)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// A string or a number of a JSON list, as text.
    private struct ListElement: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else if let integer = try? container.decode(Int64.self) {
                text = String(integer)
            } else {
                text = String(try container.decode(Double.self))
            }
        }
    }
}
