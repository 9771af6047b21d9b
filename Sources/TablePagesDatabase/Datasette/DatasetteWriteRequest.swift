import Foundation
import TableKit
import TableStore

/// The bodies of Datasette 1.0a41's write API, read and checked with its words for each mistake,
/// so a script gets the same 400 here as there. Values become SQLite's as Datasette stores them:
/// `true`/`false` as 1/0, an array or object as its JSON text, `{"$base64": true, "encoded": …}` as
/// a blob, `{"$raw": v}` as `v` itself.
enum DatasetteWriteRequest {
    /// A refused body: Datasette's messages (it lists several at once) and the status.
    struct Refusal: Error, Equatable {
        /// Each mistake, in Datasette's words.
        var messages: [String]
        /// 400, or 413 for too many rows.
        var status = 400
        init(_ messages: [String], status: Int = 400) {
            self.messages = messages
            self.status = status
        }
        init(_ message: String) { self.init([message]) }
    }

    /// One row of a write: its columns in the order the body names them.
    struct Row: Sendable, Equatable {
        /// The columns named.
        var columns: [String]
        /// Their values, as stored.
        var values: [SQLValue]
        /// Each value's kind for a new column (sqlite-utils' choice of type).
        var kinds: [ValueKind]

        /// The value of `column`, or nil when the row does not name it.
        func value(of column: String) -> SQLValue? {
            columns.firstIndex(of: column).map { values[$0] }
        }
    }

    /// What a JSON value was, for choosing a new column's type as sqlite-utils does.
    enum ValueKind: Sendable, Equatable {
        case null, integer, boolean, real, text, blob
    }

    /// `/-/insert` and `/-/upsert`: the rows and the options.
    struct Insert: Sendable {
        var rows: [Row]
        var returnsRows: Bool
        var ignore: Bool
        var replace: Bool
        var alter: Bool
    }

    /// `/-/update`: the new values of one row.
    struct Update: Sendable {
        var update: Row
        var returnsRow: Bool
        var alter: Bool
    }

    /// `/-/create`: a table from columns, or from rows.
    struct Create: Sendable {
        /// A column of a table created from `columns`.
        struct Column: Sendable, Equatable {
            var name: String
            /// `TEXT`, `INTEGER`, `REAL` or `BLOB`.
            var type: String
            var notNull: Bool
            /// `default`: a value the column takes when a row names none; nil for none (absent or null).
            var defaultValue: JSONValue?
            /// `default_expr`: the SQL of one of Datasette's ``defaultExpressions``.
            var defaultExpression: String?
            /// `fk_table`: the table the column refers to; nil (or empty) for none.
            var foreignTable: String?
            /// `fk_column`: the column of ``foreignTable`` it refers to; nil for that table's primary key.
            var foreignColumn: String?
        }
        var table: String
        var columns: [Column]?
        var rows: [Row]?
        var pks: [String]
        var ignore: Bool
        var replace: Bool
        var alter: Bool
    }

    // MARK: Reading

    /// The body of `/-/insert` (or, with `upsert`, `/-/upsert`) to a table whose key is `pks`
    /// (`["rowid"]` for a rowid table) and whose columns are `columns`.
    static func insert(_ body: [UInt8], pks: [String], columns: [String], upsert: Bool, maxRows: Int) throws(Refusal) -> Insert {
        let members = try object(body, notObject: "JSON must be a dictionary")
        let names = Set(members.map(\.name))
        guard names.contains("row") || names.contains("rows") else { throw Refusal(#"JSON must have one or other of "row" or "rows""#) }
        var returnsRows = false
        let given: [JSONValue]
        if let row = member("row", of: members) {
            if names.contains("rows") { throw Refusal(#"Cannot use "row" and "rows" at the same time"#) }
            guard case .object = row else { throw Refusal(#""row" must be a dictionary"#) }
            given = [row]
            returnsRows = true
        } else {
            guard case .array(let list)? = member("rows", of: members) else { throw Refusal(#""rows" must be a list"#) }
            given = list
        }
        var rows: [Row] = []
        for value in given {
            guard case .object(let properties) = value else { throw Refusal(#""rows" must be a list of dictionaries"#) }
            rows.append(try row(properties))
        }
        guard rows.count <= maxRows else { throw Refusal("Too many rows, maximum allowed is \(maxRows)") }
        let extras = members.filter { $0.name != "row" && $0.name != "rows" }
        let invalid = Set(extras.map(\.name)).subtracting(["return", "ignore", "replace", "alter"]).sorted()
        if !invalid.isEmpty { throw Refusal("Invalid parameter: \"\(invalid.joined(separator: "\", \""))\"") }
        let ignore = truthy(member("ignore", of: extras))
        let replace = truthy(member("replace", of: extras))
        if ignore && replace { throw Refusal(#"Cannot use "ignore" and "replace" at the same time"#) }
        let alter = truthy(member("alter", of: extras))
        let known = Set(columns).union(pks)
        var errors: [String] = []
        for (index, row) in rows.enumerated() {
            if upsert {
                let missing = pks.filter { !row.columns.contains($0) }
                if !missing.isEmpty { errors.append("Row \(index) is missing primary key column(s): \"\(missing.joined(separator: "\", \""))\"") }
                let nulls = pks.filter { row.value(of: $0)?.isNull == true }
                if !nulls.isEmpty { errors.append("Row \(index) has null primary key column(s): \"\(nulls.joined(separator: "\", \""))\"") }
            }
            let unknown = Set(row.columns).subtracting(known).sorted()
            if !unknown.isEmpty, !alter { errors.append("Row \(index) has invalid columns: \(unknown.joined(separator: ", "))") }
        }
        if !errors.isEmpty { throw Refusal(errors) }
        if upsert && (ignore || replace) { throw Refusal("Upsert does not support ignore or replace") }
        return Insert(rows: rows, returnsRows: returnsRows || truthy(member("return", of: extras)), ignore: ignore, replace: replace, alter: alter)
    }

    /// The body of `/{pk}/-/update`.
    static func update(_ body: [UInt8]) throws(Refusal) -> Update {
        let members = try object(body, notObject: "JSON must be a dictionary")
        guard case .object(let properties)? = member("update", of: members) else { throw Refusal("JSON must contain an update dictionary") }
        let invalid = members.map(\.name).filter { !["update", "return", "alter"].contains($0) }
        if !invalid.isEmpty { throw Refusal("Invalid keys: \(invalid.joined(separator: ", "))") }
        return Update(update: try row(properties), returnsRow: truthy(member("return", of: members)), alter: truthy(member("alter", of: members)))
    }

    /// The body of `/-/create`, checked as Datasette's model checks it (its messages, in its order).
    /// Rows past `maxRows` are refused as an insert's are (Datasette itself does not bound them here).
    static func create(_ body: [UInt8], maxRows: Int) throws(Refusal) -> Create {
        let members = try object(body, notObject: "JSON must be an object")
        let allowed: Set<String> = ["table", "rows", "row", "columns", "pk", "pks", "ignore", "replace", "alter"]
        let invalid = members.map(\.name).filter { !allowed.contains($0) }.sorted()
        if !invalid.isEmpty { throw Refusal("Invalid keys: \(invalid.joined(separator: ", "))") }
        var columns: [Create.Column]?
        if let given = member("columns", of: members), given != .null {
            guard case .array(let list) = given else { throw Refusal("columns must be a list") }
            var read: [Create.Column] = []
            var problems: [String] = []
            for item in list {
                guard case .object = item else { throw Refusal("columns must be a list of objects") }
            }
            // Datasette's model checks every column and lists each one's mistakes.
            for (index, item) in list.enumerated() {
                guard case .object(let properties) = item else { continue }
                do {
                    read.append(try column(properties, at: index))
                } catch {
                    problems += error.messages
                }
            }
            if !problems.isEmpty { throw Refusal(problems) }
            columns = read
        }
        guard case .string(let table)? = member("table", of: members), !table.isEmpty else {
            if let table = member("table", of: members), truthy(table) { throw Refusal("Invalid table name") }
            throw Refusal("Table is required")
        }
        guard !table.hasPrefix("sqlite_"), !table.contains("\n") else { throw Refusal("Invalid table name") }
        let rowsValue = member("rows", of: members)
        let rowValue = member("row", of: members)
        let hasRows = truthy(rowsValue)
        let hasRow = truthy(rowValue)
        if (columns ?? []).isEmpty, !hasRows, !hasRow { throw Refusal("columns, rows or row is required") }
        if hasRows, hasRow { throw Refusal("Cannot specify both rows and row") }
        if !(columns ?? []).isEmpty, hasRows || hasRow { throw Refusal("Cannot specify columns with rows or row") }
        if let columns {
            var seen: Set<String> = []
            var duplicates: [String] = []
            for column in columns {
                if seen.contains(column.name), !duplicates.contains(column.name) { duplicates.append(column.name) }
                seen.insert(column.name)
            }
            if !duplicates.isEmpty { throw Refusal("Duplicate column name: \(duplicates.joined(separator: ", "))") }
        }
        var rows: [Row]?
        if let rowsValue, rowsValue != .null {
            guard case .array(let list) = rowsValue else { throw Refusal("rows must be a list") }
            var read: [Row] = []
            for item in list {
                guard case .object(let properties) = item else { throw Refusal("rows must be a list of objects") }
                read.append(try row(properties))
            }
            rows = read
        }
        if hasRow {
            guard case .object(let properties)? = rowValue else { throw Refusal("row must be a dictionary") }
            rows = [try row(properties)]
        }
        if let count = rows?.count, count > maxRows { throw Refusal("Too many rows, maximum allowed is \(maxRows)") }
        var pks: [String] = []
        let pkValue = member("pk", of: members)
        if let pkValue, pkValue != .null {
            guard case .string(let pk) = pkValue else { throw Refusal("pk must be a string") }
            if !pk.isEmpty { pks = [pk] }
        }
        if let pksValue = member("pks", of: members), pksValue != .null {
            if !pks.isEmpty, truthy(pksValue) { throw Refusal("Cannot specify both pk and pks") }
            guard case .array(let list) = pksValue else { throw Refusal("pks must be a list") }
            var names: [String] = []
            for item in list {
                guard case .string(let name) = item else { throw Refusal("pks must be a list of strings") }
                names.append(name)
            }
            if pks.isEmpty { pks = names }
        }
        let ignore = try flag("ignore", of: members)
        let replace = try flag("replace", of: members)
        if ignore && replace { throw Refusal("ignore and replace are mutually exclusive") }
        if member("ignore", of: members) != nil || member("replace", of: members) != nil {
            if !hasRows, !hasRow { throw Refusal("ignore and replace require row or rows") }
            if pks.isEmpty { throw Refusal("ignore and replace require pk or pks") }
        }
        return Create(table: table, columns: columns, rows: rows, pks: pks, ignore: ignore, replace: replace, alter: try flag("alter", of: members))
    }

    // MARK: Values

    /// A row's columns and values; Datasette's `$base64` and `$raw` objects decoded.
    static func row(_ properties: [JSONProperty]) throws(Refusal) -> Row {
        var row = Row(columns: [], values: [], kinds: [])
        for property in properties {
            let (value, kind) = try stored(property.value)
            if value.isTextHoldingNUL {
                throw Refusal(nulRefusal(column: property.name))
            }
            row.columns.append(property.name)
            row.values.append(value)
            row.kinds.append(kind)
        }
        return row
    }

    /// Why a text value of `column` holding U+0000 is refused, and how to send it instead.
    static func nulRefusal(column: String) -> String {
        #"Text in column "\#(column)" holds the character U+0000 (NUL), which cannot be stored as text; send it as bytes: {"$base64": true, "encoded": …}"#
    }

    /// A JSON value as SQLite stores it through Datasette (sqlite-utils), and its kind.
    static func stored(_ value: JSONValue) throws(Refusal) -> (SQLValue, ValueKind) {
        switch value {
        case .null: return (.null, .null)
        case .bool(let flag): return (.integer(flag ? 1 : 0), .boolean)
        case .integer(let integer): return (.integer(integer), .integer)
        case .number(let real): return (.real(real), .real)
        case .string(let text): return (.text(text), .text)
        case .array: return (.text(pythonJSON(value)), .text)
        case .object(let members):
            let names = Set(members.map(\.name))
            if names == ["$raw"], let raw = members.first?.value {
                // sqlite-utils stores what `$raw` holds as it is: a nested array or object as its JSON.
                return try stored(raw)
            }
            if names == ["$base64", "encoded"], member("$base64", of: members) == .bool(true) {
                guard case .string(let encoded)? = member("encoded", of: members) else { throw Refusal("$base64 encoded value must be a string") }
                guard let data = Data(base64Encoded: encoded) else { throw Refusal("Invalid $base64 encoded value") }
                return (.blob(data), .blob)
            }
            return (.text(pythonJSON(value)), .text)
        }
    }

    /// `value` as Python's `json.dumps` writes it (what sqlite-utils stores for a list or dict):
    /// `", "` and `": "` between items, non-ASCII as `\uXXXX`.
    static func pythonJSON(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let integer): return String(integer)
        case .number(let real): return real.isFinite ? DatasetteJSON.pythonRepr(real) : (real.isNaN ? "NaN" : real < 0 ? "-Infinity" : "Infinity")
        case .string(let text): return pythonString(text)
        case .array(let elements): return "[" + elements.map(pythonJSON).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { pythonString($0.name) + ": " + pythonJSON($0.value) }.joined(separator: ", ") + "}"
        }
    }

    private static func pythonString(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    // MARK: Helpers

    private static func object(_ body: [UInt8], notObject: String) throws(Refusal) -> [JSONProperty] {
        let value: JSONValue
        do {
            value = try DatasetteJSONBody.parse(body)
        } catch {
            throw Refusal(error.message)
        }
        guard case .object(let members) = value else { throw Refusal(notObject) }
        return members
    }

    /// The SQL of each `default_expr` Datasette 1.0a41 offers, by name, in its order.
    static let defaultExpressions: KeyValuePairs<String, String> = [
        "current_timestamp": "CURRENT_TIMESTAMP",
        "current_date": "CURRENT_DATE",
        "current_time": "CURRENT_TIME",
        "current_unixtime": "(CAST(strftime('%s', 'now') AS INTEGER))",
        "current_unixtime_ms": "(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))",
    ]

    /// One of `columns`, checked as Datasette's column model checks it: each member's type first
    /// (in the model's order, then members it does not know), then the members together, then the
    /// name, type and key; the messages say where (`columns.0.default_expr: …`).
    private static func column(_ properties: [JSONProperty], at index: Int) throws(Refusal) -> Create.Column {
        let place = "columns.\(index)"
        var problems: [String] = []
        var expression: String?
        if let given = member("default_expr", of: properties), given != .null {
            if case .string(let name) = given {
                expression = defaultExpressions.first { $0.key == name }?.value
                if expression == nil {
                    let names = defaultExpressions.map { "'\($0.key)'" }
                    problems.append("\(place).default_expr: Input should be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
                }
            } else {
                problems.append("\(place).default_expr: Input should be a valid string")
            }
        }
        var texts: [String: String] = [:]
        for name in ["fk_table", "fk_column"] {
            switch member(name, of: properties) {
            case nil, .null?: break
            case .string(let text)?: texts[name] = text
            default: problems.append("\(place).\(name): Input should be a valid string")
            }
        }
        let notNull = boolean(member("not_null", of: properties))
        if notNull == nil { problems.append("\(place).not_null: Input should be a valid boolean, unable to interpret input") }
        let known = ["name", "type", "fk_table", "fk_column", "not_null", "default", "default_expr"]
        problems += properties.map(\.name).filter { !known.contains($0) }.map { "\(place).\($0): Extra inputs are not permitted" }
        if !problems.isEmpty { throw Refusal(problems) }
        let hasDefault = member("default", of: properties) != nil
        if hasDefault, member("default_expr", of: properties) != nil {
            throw Refusal("\(place): Value error, default and default_expr cannot both be provided")
        }
        if member("default_expr", of: properties) == .null { throw Refusal("\(place): Value error, default_expr cannot be null") }
        guard case .string(let name)? = member("name", of: properties), !name.isEmpty else { throw Refusal("Column name is required") }
        var type = "TEXT"
        if let given = member("type", of: properties), truthy(given) {
            let types = ["text": "TEXT", "integer": "INTEGER", "float": "REAL", "blob": "BLOB"]
            guard case .string(let text) = given, let mapped = types[text] else {
                throw Refusal("Unsupported column type: \(given.pythonText)")
            }
            type = mapped
        }
        let (foreignTable, foreignColumn) = (texts["fk_table"] ?? "", texts["fk_column"] ?? "")
        if !foreignColumn.isEmpty, foreignTable.isEmpty { throw Refusal("\(place): fk_column requires fk_table") }
        let defaultValue = member("default", of: properties).flatMap { $0 == .null ? nil : $0 }
        return Create.Column(
            name: name, type: type, notNull: notNull ?? false, defaultValue: defaultValue, defaultExpression: expression,
            foreignTable: foreignTable.isEmpty ? nil : foreignTable, foreignColumn: foreignColumn.isEmpty ? nil : foreignColumn
        )
    }

    /// A member's value; nil when absent.
    static func member(_ name: String, of members: [JSONProperty]) -> JSONValue? {
        members.first { $0.name == name }?.value
    }

    /// Whether Python would call the value true (`bool(value)`): what Datasette tests its options by.
    static func truthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let flag)?: flag
        case .integer(let integer)?: integer != 0
        case .number(let real)?: real != 0
        case .string(let text)?: !text.isEmpty
        case .array(let elements)?: !elements.isEmpty
        case .object(let members)?: !members.isEmpty
        }
    }

    /// An option Datasette's model reads as a boolean: true, false, null, or the words and numbers
    /// pydantic takes for them; anything else is its "Input should be a valid boolean".
    private static func flag(_ name: String, of members: [JSONProperty]) throws(Refusal) -> Bool {
        guard let flag = boolean(member(name, of: members)) else { throw Refusal("\(name): Input should be a valid boolean") }
        return flag
    }

    /// A value as pydantic reads a boolean (false when absent or null); nil when it reads none.
    private static func boolean(_ value: JSONValue?) -> Bool? {
        switch value {
        case nil, .null?: false
        case .bool(let flag)?: flag
        case .integer(let integer)? where integer == 0 || integer == 1: integer == 1
        case .string(let text)? where ["true", "1", "yes", "on", "t", "y"].contains(text.lowercased()): true
        case .string(let text)? where ["false", "0", "no", "off", "f", "n"].contains(text.lowercased()): false
        default: nil
        }
    }
}

extension JSONValue {
    /// The value as Python's `str` of the parsed value would write it, for messages.
    var pythonText: String {
        switch self {
        case .string(let text): text
        case .null: "None"
        case .bool(let flag): flag ? "True" : "False"
        default: DatasetteWriteRequest.pythonJSON(self)
        }
    }
}
