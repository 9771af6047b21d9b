import Escaping
import Foundation
import MicroHTTP
import TableStore

/// Datasette 0.65's CSV of a table's page or of one row (`/{database}/{table}.csv`,
/// `/{database}/{table}/{pk}.csv`), written as Python's `csv` module writes it: a header of the
/// shown columns (each expanded foreign key followed by `{column}_label`), lines ended by CRLF, a
/// field quoted only when it holds a comma, a quote or a line break (quotes doubled). NULL is
/// empty, a real is Python's `repr` (`inf`), and a blob is the URL of its bytes
/// (`…/{table}/{pk}.blob?_blob_column=col`), as Datasette links it.
enum DatasetteCSV {
    /// Where a blob's bytes are: the URL of the row's `.blob` for a column.
    struct BlobLinks {
        /// `http://host/{database}/{table}`, tilde-encoded.
        var tablePath: String
    }

    /// The CSV of `rows` of `columns`, with `addresses` (each row's key, for blob links) and the
    /// labels of the expanded columns; without its header line when not `withHeader` (`_header=off`).
    static func document(columns: [String], rows: [[SQLValue]], addresses: [[SQLValue]], labels: [String: [SQLValue: DatasetteLabels.Label]], blobs: BlobLinks, withHeader: Bool = true) -> String {
        var out = withHeader ? header(columns: columns, labels: labels) : ""
        for index in rows.indices {
            out += line(columns: columns, row: rows[index], address: index < addresses.count ? addresses[index] : nil, labels: labels, blobs: blobs)
        }
        return out
    }

    /// The header line: the shown columns, each expanded one followed by `{column}_label`.
    static func header(columns: [String], labels: [String: [SQLValue: DatasetteLabels.Label]]) -> String {
        var header: [String] = []
        for column in columns {
            header.append(column)
            if labels[column] != nil { header.append(column + "_label") }
        }
        var out = ""
        appendLine(header, to: &out)
        return out
    }

    /// One row's line; `address` is its key, for blob links (none: a blob's link names no row).
    static func line(columns: [String], row: [SQLValue], address: [SQLValue]?, labels: [String: [SQLValue: DatasetteLabels.Label]], blobs: BlobLinks) -> String {
        var fields: [String] = []
        for (column, value) in zip(columns, row) {
            if case .blob = value {
                let key = address?.map { TildeEncoding.encode(DatasetteTableReader.text($0)) }.joined(separator: ",") ?? ""
                fields.append("\(blobs.tablePath)/\(key).blob?_blob_column=\(PercentEncoding.encode(column))")
            } else {
                fields.append(text(value))
            }
            if let columnLabels = labels[column] {
                fields.append((columnLabels[value] ?? nil) ?? "")
            }
        }
        var out = ""
        appendLine(fields, to: &out)
        return out
    }

    /// A value as Python's `csv` writes it (before quoting).
    static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: ""
        case .real(let double): DatasetteJSON.pythonRepr(double)
        default: DatasetteTableReader.text(value)
        }
    }

    /// One line: the fields quoted where they must be, then CRLF. A line of one empty field is
    /// `""`, which Python writes so that it is not read as no field.
    private static func appendLine(_ fields: [String], to out: inout String) {
        if fields.count == 1, fields[0].isEmpty {
            out += "\"\"\r\n"
            return
        }
        out += fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
        out += "\r\n"
    }
}
