import Foundation
import Escaping
import TableStore
import TableKit

/// Datasette 0.65's JSON documents, written from a ``DatasetteTableReader/Page``: the table
/// document with its keys in Datasette's order, its four `_shape`s, the row document and the
/// error object. Values are written as Datasette writes them: integers whole, reals as Python
/// writes them and non-finite ones as `null`, text as itself, a blob as its text when it is
/// UTF-8 (so an empty blob is `""`) and else `{"$base64": true, "encoded": "…"}`.
enum DatasetteJSON {
    /// What the table document says besides the page's rows.
    struct TableContext {
        var database: String
        var table: DatasetteTable
        var request: DatasetteTableRequest
        var humanDescription: String
        var nextURL: String?
        /// The columns `_labels` can expand (``DatasetteLabels/expandableColumns(of:)``).
        var expandable: [(column: String, otherTable: String, otherColumn: String, labelColumn: String?)] = []
        var milliseconds: Double
        /// The facets counted and suggested (``DatasetteFacets``).
        var facets = DatasetteFacets.Result()
        /// Where the facets' links lead; nil for none.
        var facetLinks: FacetLinks?
        /// Whether the viewer may run SQL of their own (`allow_execute_sql`, `--sql`).
        var allowsSQL = false
    }

    /// The table document in the request's shape.
    static func table(_ page: DatasetteTableReader.Page, context: TableContext) -> String {
        var out = OutputBuffer(capacity: 1024 + page.rows.count * 64)
        let request = context.request
        if request.shape == .object, context.table.usesRowID || context.table.isView {
            return #"{"ok": false, "error": "_shape=object not available for tables with no primary keys"}"#
        }
        if let rows = rowsOnly(page.rows, columns: page.columns, keys: { page.addresses[$0].map { TildeEncoding.encode(DatasetteTableReader.text($0)) }.joined(separator: ",") }, labels: page.labels, request: request) {
            return rows
        }
        out.append("{\"database\": ")
        out.appendJSONString(context.database)
        out.append(", \"table\": ")
        out.appendJSONString(context.table.schema.name)
        out.append(", \"is_view\": ")
        out.append(context.table.isView ? "true" : "false")
        out.append(", \"human_description_en\": ")
        out.appendJSONString(context.humanDescription)
        out.append(", \"rows\": [")
        for (index, row) in page.rows.enumerated() {
            if index > 0 { out.append(", ") }
            // Datasette 0.65 writes a row whose values it expanded as an object, `_shape=arrays` too.
            if context.request.shape == .objects || !page.labels.isEmpty {
                appendObject(row, columns: page.columns, labels: page.labels, infinity: request.infinity, to: &out)
            } else {
                appendArray(row, columns: page.columns, labels: page.labels, infinity: request.infinity, to: &out)
            }
        }
        out.append("], \"truncated\": false, \"filtered_table_rows_count\": ")
        if let count = page.count { out.append(count) } else { out.append("null") }
        out.append(", \"expanded_columns\": ")
        appendStrings(context.expandable.map(\.column).filter { page.labels[$0] != nil }, to: &out)
        out.append(", \"expandable_columns\": [")
        for (index, link) in context.expandable.enumerated() {
            if index > 0 { out.append(", ") }
            out.append("[{\"column\": ")
            out.appendJSONString(link.column)
            out.append(", \"other_table\": ")
            out.appendJSONString(link.otherTable)
            out.append(", \"other_column\": ")
            out.appendJSONString(link.otherColumn)
            out.append("}, ")
            if let label = link.labelColumn { out.appendJSONString(label) } else { out.append("null") }
            out.append("]")
        }
        out.append("], \"columns\": ")
        appendStrings(page.columns, to: &out)
        out.append(", \"primary_keys\": ")
        appendStrings(context.table.primaryKeys, to: &out)
        out.append(", \"units\": {}, \"query\": {\"sql\": ")
        out.appendJSONString(page.sql)
        out.append(", \"params\": {}}, ")
        if let links = context.facetLinks {
            appendFacets(context.facets, table: context.table, links: links, to: &out)
        } else {
            out.append("\"facet_results\": {}, \"suggested_facets\": []")
        }
        out.append(", \"next\": ")
        out.appendJSONString(page.next)
        out.append(", \"next_url\": ")
        out.appendJSONString(context.nextURL)
        out.append(", \"private\": false, \"allow_execute_sql\": ")
        out.append(context.allowsSQL ? "true" : "false")
        out.append(", \"query_ms\": ")
        out.appendUnescaped(pythonRepr(context.milliseconds))
        out.append("}")
        return out.string
    }

    /// Datasette 1.0a41's table document, for a request that names extras (``DatasetteExtras``):
    /// `ok`, `next`, `next_url`, each extra named, `rows` (lists with `_shape=arrays`, else objects)
    /// and `truncated`.
    static func extended(_ page: DatasetteTableReader.Page, context: TableContext, extras: Set<String>) -> String {
        var out = OutputBuffer(capacity: 1024 + page.rows.count * 64)
        out.append("{\"ok\": true, \"next\": ")
        out.appendJSONString(page.next)
        out.append(", \"next_url\": ")
        out.appendJSONString(context.nextURL)
        for (name, write) in DatasetteExtras.writers where extras.contains(name) {
            out.append(", ")
            out.appendJSONString(name)
            out.append(": ")
            write(page, context, &out)
        }
        out.append(", \"rows\": [")
        for (index, row) in page.rows.enumerated() {
            if index > 0 { out.append(", ") }
            if context.request.shape == .arrays, context.request.shapeGiven, page.labels.isEmpty {
                appendArray(row, columns: page.columns, labels: page.labels, infinity: context.request.infinity, to: &out)
            } else {
                appendObject(row, columns: page.columns, labels: page.labels, infinity: context.request.infinity, to: &out)
            }
        }
        out.append("], \"truncated\": false}")
        return out.string
    }

    /// The rows alone in the shapes that leave out the document: a list of objects (`array`,
    /// one a line with `_nl`), of first values (`arrayfirst`), or an object of objects by
    /// `keys(index)` (`object`); nil for `arrays` and `objects`.
    static func rowsOnly(_ rows: [[SQLValue]], columns: [String], keys: (Int) -> String, labels: [String: [SQLValue: DatasetteLabels.Label]], request: DatasetteTableRequest) -> String? {
        var out = OutputBuffer(capacity: 256 + rows.count * 64)
        switch request.shape {
        case .arrays, .objects:
            return nil
        case .array where request.newlineDelimited:
            for (index, row) in rows.enumerated() {
                if index > 0 { out.append("\n") }
                appendObject(row, columns: columns, labels: labels, infinity: request.infinity, to: &out)
            }
        case .array, .arrayfirst:
            out.append("[")
            for (index, row) in rows.enumerated() {
                if index > 0 { out.append(", ") }
                if request.shape == .arrayfirst {
                    appendValue(row.first ?? .null, infinity: request.infinity, to: &out)
                } else {
                    appendObject(row, columns: columns, labels: labels, infinity: request.infinity, to: &out)
                }
            }
            out.append("]")
        case .object:
            out.append("{")
            for (index, row) in rows.enumerated() {
                if index > 0 { out.append(", ") }
                out.appendJSONString(keys(index))
                out.append(": ")
                appendObject(row, columns: columns, labels: labels, infinity: request.infinity, to: &out)
            }
            out.append("}")
        }
        return out.string
    }

    /// The row document of `/{database}/{table}/{pk}.json`, in the request's shape (`_shape`;
    /// the shapes without a document are those of the table's rows).
    static func row(_ values: [SQLValue], columns: [String], database: String, table: DatasetteTable, keyValues: [String], request: DatasetteTableRequest, milliseconds: Double) -> String {
        if let rows = rowsOnly([values], columns: columns, keys: { _ in keyValues.map(TildeEncoding.encode).joined(separator: ",") }, labels: [:], request: request) {
            return rows
        }
        var out = OutputBuffer(capacity: 512)
        out.append("{\"database\": ")
        out.appendJSONString(database)
        out.append(", \"table\": ")
        out.appendJSONString(table.schema.name)
        out.append(", \"rows\": [")
        if request.shape == .objects {
            appendObject(values, columns: columns, labels: [:], infinity: request.infinity, to: &out)
        } else {
            appendArray(values, columns: columns, labels: [:], infinity: request.infinity, to: &out)
        }
        out.append("], \"columns\": ")
        appendStrings(columns, to: &out)
        out.append(", \"primary_keys\": ")
        appendStrings(table.addressColumns, to: &out)
        out.append(", \"primary_key_values\": ")
        appendStrings(keyValues, to: &out)
        out.append(", \"units\": {}, \"query_ms\": ")
        out.appendUnescaped(pythonRepr(milliseconds))
        out.append("}")
        return out.string
    }

    /// Datasette's error object; `title` is Datasette's heading of the error, such as `Invalid SQL`
    /// for a query SQLite refused.
    /// `text` as a JSON string.
    static func string(_ text: String) -> String {
        var out = OutputBuffer(capacity: text.utf8.count + 2)
        out.appendJSONString(text)
        return out.string
    }

    static func error(_ message: String, status: Int, title: String? = nil) -> String {
        var out = OutputBuffer(capacity: 128)
        out.append("{\"ok\": false, \"error\": ")
        out.appendJSONString(message)
        out.append(", \"status\": ")
        out.append(status)
        out.append(", \"title\": ")
        if let title { out.appendJSONString(title) } else { out.append("null") }
        out.append("}")
        return out.string
    }

    // MARK: Values

    private static func appendObject(_ row: [SQLValue], columns: [String], labels: [String: [SQLValue: DatasetteLabels.Label]], infinity: Bool, to out: inout OutputBuffer) {
        out.append("{")
        for (index, (column, value)) in zip(columns, row).enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(column)
            out.append(": ")
            appendValue(value, label: labels[column]?[value], infinity: infinity, to: &out)
        }
        out.append("}")
    }

    private static func appendArray(_ row: [SQLValue], columns: [String], labels: [String: [SQLValue: DatasetteLabels.Label]], infinity: Bool, to out: inout OutputBuffer) {
        out.append("[")
        for (index, (column, value)) in zip(columns, row).enumerated() {
            if index > 0 { out.append(", ") }
            appendValue(value, label: labels[column]?[value], infinity: infinity, to: &out)
        }
        out.append("]")
    }

    static func appendStrings(_ strings: [String], to out: inout OutputBuffer) {
        out.append("[")
        for (index, text) in strings.enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(text)
        }
        out.append("]")
    }

    /// One value, or `{"value": …, "label": …}` when it references a row (`label` is then
    /// non-nil; `.some(nil)` for a row whose label is NULL, written `"label": null`). With
    /// `infinity`, an infinite real is `Infinity` or `-Infinity`, as Python writes it; else `null`.
    static func appendValue(_ value: SQLValue, label: DatasetteLabels.Label? = nil, infinity: Bool = false, to out: inout OutputBuffer) {
        if let label, !value.isNull {
            out.append("{\"value\": ")
            appendValue(value, infinity: infinity, to: &out)
            out.append(", \"label\": ")
            if let label { out.appendJSONString(label) } else { out.append("null") }
            out.append("}")
            return
        }
        switch value {
        case .null: out.append("null")
        case .integer(let integer): out.append(Int(integer))
        case .real(let double) where double.isFinite: out.appendUnescaped(pythonRepr(double))
        case .real(let double) where infinity && double.isInfinite: out.append(double < 0 ? "-Infinity" : "Infinity")
        case .real: out.append("null")
        case .text(let text): out.appendJSONString(text)
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .blob(let data):
            if let text = String(validating: Array(data), as: UTF8.self) {
                out.appendJSONString(text)
            } else {
                out.append("{\"$base64\": true, \"encoded\": ")
                out.appendJSONString(data.base64EncodedString())
                out.append("}")
            }
        }
    }

    /// `value` as Python's `repr` writes a float: the shortest digits that read back as it,
    /// in positional notation from 1e-4 up to 1e16 (`0.0001`, `44.0`) and in scientific notation
    /// beyond (`1e-05`, `1e+16`).
    static func pythonRepr(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        var text = value.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integral = String(parts[0])
        var digits = integral + (parts.count > 1 ? String(parts[1]) : "")
        var point = integral.count + exponent
        while digits.count > 1, digits.hasPrefix("0") {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.hasSuffix("0") { digits.removeLast() }
        let sign = value < 0 ? "-" : ""
        let scientific = point - 1
        if (-4..<16).contains(scientific) {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
            if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) + ".0" }
            return sign + digits.prefix(point) + "." + digits.dropFirst(point)
        }
        let mantissa = digits.count == 1 ? digits : digits.prefix(1) + "." + digits.dropFirst()
        let magnitude = abs(scientific)
        return sign + mantissa + "e" + (scientific < 0 ? "-" : "+") + (magnitude < 10 ? "0" : "") + String(magnitude)
    }
}
