import TableStore
import TableKit

/// The JSON of a query's result, as Datasette 0.65 writes `/{database}.json?sql=…`: the keys
/// `ok`, `database`, `query_name`, `rows`, `truncated`, `columns`, `query` (`sql`, `params`),
/// `error`, `private`, `allow_execute_sql`, `query_ms`, rows as arrays (`_shape=arrays`, the
/// default) or objects (`_shape=objects`), or the bare array of objects (`_shape=array`, one a
/// line with `_nl=on`). Values as ``DatasetteJSON`` writes them.
enum QueryJSON {
    /// The shapes a query's JSON comes in.
    enum Shape: String {
        case arrays, objects, array
    }

    /// What the document says besides the rows.
    struct Context {
        var database: String
        var queryName: String?
        var sql: String
        /// The request's parameters but `sql` and `_shape`, first value of each, in order.
        var params: [(name: String, value: String)]
        var shape: Shape
        /// Whether the viewer may run SQL of their own (`allow_execute_sql`).
        var allowsSQL: Bool
        var newlineDelimited: Bool
    }

    /// The document for `result`, or for `error` (a failed query: no rows, `ok` false).
    static func document(_ result: QueryResult?, error: String?, context: Context) -> String {
        let columns = result?.columns ?? []
        let rows = result?.rows ?? []
        var out = OutputBuffer(capacity: 512 + rows.count * 64)
        if context.shape == .array {
            if !context.newlineDelimited { out.append("[") }
            for (index, row) in rows.enumerated() {
                if index > 0 { out.append(context.newlineDelimited ? "\n" : ", ") }
                appendObject(row, columns: columns, to: &out)
            }
            if !context.newlineDelimited { out.append("]") }
            return out.string
        }
        out.append("{\"ok\": ")
        out.append(error == nil ? "true" : "false")
        out.append(", \"database\": ")
        out.appendJSONString(context.database)
        out.append(", \"query_name\": ")
        out.appendJSONString(context.queryName)
        out.append(", \"rows\": [")
        for (index, row) in rows.enumerated() {
            if index > 0 { out.append(", ") }
            if context.shape == .objects {
                appendObject(row, columns: columns, to: &out)
            } else {
                out.append("[")
                for (position, value) in row.enumerated() {
                    if position > 0 { out.append(", ") }
                    DatasetteJSON.appendValue(value, to: &out)
                }
                out.append("]")
            }
        }
        out.append("], \"truncated\": ")
        out.append(result?.truncated == true ? "true" : "false")
        out.append(", \"columns\": [")
        for (index, column) in columns.enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(column)
        }
        out.append("], \"query\": {\"sql\": ")
        out.appendJSONString(context.sql)
        out.append(", \"params\": {")
        for (index, param) in context.params.enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(param.name)
            out.append(": ")
            out.appendJSONString(param.value)
        }
        out.append("}}, \"error\": ")
        out.appendJSONString(error)
        out.append(", \"private\": false, \"allow_execute_sql\": ")
        out.append(context.allowsSQL ? "true" : "false")
        out.append(", \"query_ms\": ")
        out.appendUnescaped(DatasetteJSON.pythonRepr(result?.milliseconds ?? 0))
        out.append("}")
        return out.string
    }

    /// Datasette's error object for a request that is refused before any query runs.
    static func error(_ message: String, status: Int, title: String?) -> String {
        var out = OutputBuffer(capacity: 128)
        out.append("{\"ok\": false, \"error\": ")
        out.appendJSONString(message)
        out.append(", \"status\": ")
        out.append(status)
        out.append(", \"title\": ")
        out.appendJSONString(title)
        out.append("}")
        return out.string
    }

    private static func appendObject(_ row: [SQLValue], columns: [String], to out: inout OutputBuffer) {
        out.append("{")
        for (index, (column, value)) in zip(columns, row).enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(column)
            out.append(": ")
            DatasetteJSON.appendValue(value, to: &out)
        }
        out.append("}")
    }
}
