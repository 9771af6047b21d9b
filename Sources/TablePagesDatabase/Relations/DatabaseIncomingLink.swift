import TableStore
import MicroHTTP
import TableKit

/// A column of another served table that refers to this table's rows: a row's page lists, for
/// each, how many rows refer to the row ("links from other tables", as Datasette's row page
/// does), each count linking to the referring table's page filtered to the row.
struct DatabaseIncomingLink: Sendable, Hashable {
    /// The referring table.
    let table: String
    /// The referring column, in ``table``.
    let column: String
    /// The column of this table whose value the referring column holds.
    let referencedColumn: String
    /// The referring table's name quoted for SQL.
    let quotedTable: String
    /// The placeholder for a value compared with the referring column.
    let placeholder: String

    /// The link of `key` into the table it refers to; `referring` is the referring table's schema.
    init(_ key: DatabaseForeignKey, referring: DatabaseTableSchema) {
        table = key.table
        column = key.column
        referencedColumn = key.referencedColumn
        quotedTable = referring.quotedName
        placeholder = referring.placeholder(for: key.column)
    }

    /// The name of the row cell's JSON member that lists the links (see ``counts(_:values:in:)``).
    static let jsonMember = "linksFromOtherTables"

    /// How many rows of each link's table refer to the row whose referenced columns hold
    /// `values` (one per link, in order), read in one query; 0 for a NULL, which no row refers to.
    static func counts(_ links: [DatabaseIncomingLink], values: [SQLValue], in db: any SQLSession) throws -> [Int] {
        let counted = zip(links, values).filter { !$0.1.isNull }
        var counts: [Int] = []
        if !counted.isEmpty {
            let terms = counted.map { link, _ in
                "(SELECT count(*) FROM \(link.quotedTable) WHERE \(SQLIdentifier.quoted(link.column)) = \(link.placeholder))"
            }
            let row = try db.row("SELECT " + terms.joined(separator: ", "), counted.map(\.1))?.values ?? []
            counts = row.map { $0.intValue ?? 0 }
        }
        var next = counts.makeIterator()
        return values.map { $0.isNull ? 0 : next.next() ?? 0 }
    }

    /// The row cell's ``jsonMember``: `{"table", "column", "count", "href"}` per link, `count` from
    /// `counts` (null when they could not be counted within the query time limit), `href` the
    /// referring table's page filtered to the row (null for a NULL or blob value).
    static func jsonProperty(_ links: [DatabaseIncomingLink], values: [SQLValue], counts: [Int]?) -> JSONProperty {
        let entries = zip(links, values).enumerated().map { position, pair -> JSONValue in
            let (link, value) = pair
            let count = counts.flatMap { $0.indices.contains(position) ? $0[position] : nil }
            let href = DatabaseLinkedColumn.text(of: value).map {
                PageContract.pagePath(named: DatabaseTablePages.pageName(ofTable: link.table)) + "?" + PercentEncoding.encode(link.column + "__exact") + "=" + PercentEncoding.encode($0)
            }
            return .object([
                JSONProperty(name: "table", value: .string(link.table)),
                JSONProperty(name: "column", value: .string(link.column)),
                JSONProperty(name: "count", value: count.map { .integer(Int64($0)) } ?? .null),
                JSONProperty(name: "href", value: href.map(JSONValue.string) ?? .null),
            ])
        }
        return JSONProperty(name: jsonMember, value: .array(entries))
    }
}
