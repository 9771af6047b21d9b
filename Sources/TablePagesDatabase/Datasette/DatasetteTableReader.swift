import Foundation
import GRDB
import Escaping
import TableStore
import TableKit

/// Reads a page of Datasette's table JSON: the rows Datasette 0.65 would answer for the same query,
/// in its order — the sort column (NULL first ascending, last descending), then the primary key
/// (or rowid) ascending, whichever the direction — and by its keyset: `_next` is the last row's
/// sort value (`$null` for NULL) and key, each tilde-encoded, joined by commas.
///
/// Filters and search are the table page's own (``DatabaseTableReader/filterTerms()``), so they
/// mean what they mean on `/pages/{table}`. The values of a `_next` token are bound as the column's
/// affinity makes them (``DatabaseFilter/bound(_:affinity:)``), where Datasette binds them as text.
struct DatasetteTableReader: Sendable {
    let database: any SQLReader
    let table: DatasetteTable
    let request: DatasetteTableRequest
    /// Where foreign-key labels come from, read with the rows when `_labels` asks.
    var labels = DatasetteLabels()
    /// The SQL page's runner of visitors' SQL: a request with `_where` (SQL from the visitor) is
    /// run by it, under its authorizer and limits, as the SQL page runs SQL; nil refuses `_where`.
    var visitorSQL: (any QueryRunner)?

    /// One page: the shown columns, their rows, the next token (nil on the last page) and,
    /// when asked, the count of the rows the filters pick.
    struct Page: Sendable {
        var columns: [String]
        var rows: [[SQLValue]]
        /// Each row's address (its key or rowid), for `_shape=object`.
        var addresses: [[SQLValue]]
        var next: String?
        var count: Int?
        var sql: String
        /// Each expanded column's labels by value (`_labels=on`).
        var labels: [String: [SQLValue: DatasetteLabels.Label]] = [:]
    }

    /// A `_next` token or a filter that names nothing readable: a 400.
    struct Refusal: Error {
        let message: String
        /// Datasette's heading of the error (`Invalid SQL` for what it hands on from SQLite).
        var title: String? = nil
    }

    /// Reads the page, counting the filtered rows when `counting`.
    func read(counting: Bool) throws -> Page {
        let query = try pageQuery()
        let reader = DatabaseTableReader(database: database, schema: table.schema, query: query)
        let raw = request.filterItems.first { $0.name == DatabaseTableQuery.searchModeParameter }?.value == "raw"
        let throughs = try request.throughs.isEmpty ? [] : database.snapshot { try throughTerms(in: $0) }
        let filters = reader.filterTerms() + columnSearchTerms(rawSearch: raw) + throughs
        var terms = filters
        // A view has no key to continue after: as in Datasette, its `_next` is the offset.
        var offset = 0
        if let next = request.next {
            if table.isView {
                guard let number = Int(next), number >= 0 else { throw Refusal(message: "_next is not a row of this table: \(next)") }
                offset = number
            } else {
                terms.append(try keyset(after: next))
            }
        }
        let address = table.addressColumns
        let shown = request.shownColumns(of: table)
        let sortColumns = request.sort.map { [$0.column] } ?? []
        let selected = (address + sortColumns + shown).map(table.expression).joined(separator: ", ")
        let order = (request.sort.map { [table.expression($0.column) + ($0.descending ? " DESC" : "")] } ?? [])
            + address.map(table.expression)
        var clause = SQLClause(whereAll: terms)
        var countClause = SQLClause(whereAll: filters)
        if !request.whereClauses.isEmpty {
            guard visitorSQL != nil else { throw Refusal(message: "_where= is not allowed") }
            // The visitor's SQL goes to the SQL page's runner, which binds no positional values:
            // the page's own values are written into the SQL as literals.
            let visitor = request.whereClauses.map { "(\($0))" }.joined(separator: " AND ")
            clause = Self.withVisitorSQL(clause, visitor)
            countClause = Self.withVisitorSQL(countClause, visitor)
        }
        let sql = "SELECT \(selected) FROM \(table.schema.quotedName)\(clause.sql)"
            + (order.isEmpty ? "" : " ORDER BY \(order.joined(separator: ", "))")
            + " LIMIT \(request.size + 1)" + (offset > 0 ? " OFFSET \(offset)" : "")
        // A raw search SQLite refuses is the client's mistake (a 400), as on the table's page;
        // so is a column search (`_search_COL`), which the page's reader does not know of, raw
        // or not (an empty one is no FTS query either), as Datasette answers it.
        do {
            return try reader.readingSearch { db in
            try checkColumnSearches(in: db)
            var rows: [[SQLValue]] = []
            var addresses: [[SQLValue]] = []
            var sortValues: [SQLValue] = []
            let width = address.count + sortColumns.count + shown.count
            try eachRow(sql, clause.arguments, in: db) { values in
                guard values.count == width else { throw Refusal(message: "_where must be a condition on the rows of \(table.schema.name)") }
                addresses.append(Array(values.prefix(address.count)))
                if !sortColumns.isEmpty { sortValues.append(values[address.count]) }
                rows.append(Array(values.dropFirst(address.count + sortColumns.count)))
            }
            var next: String?
            if request.size > 0, rows.count > request.size, table.isView {
                next = String(offset + request.size)
            } else if request.size > 0, rows.count > request.size {
                let last = request.size - 1
                next = addresses[last].map { TildeEncoding.encode(Self.text($0)) }.joined(separator: ",")
                if request.sort != nil {
                    let value = sortValues[last]
                    next = (value.isNull ? "$null" : TildeEncoding.encode(Self.text(value))) + "," + (next ?? "")
                }
            }
            var count: Int?
            if counting {
                try eachRow("SELECT count(*) FROM \(table.schema.quotedName)\(countClause.sql)", countClause.arguments, in: db) { if case .integer(let number)? = $0.first { count = Int(number) } }
            }
            rows = Array(rows.prefix(request.size))
            var expanded: [String: [SQLValue: DatasetteLabels.Label]] = [:]
            for column in labels.expandableColumns(of: table).map(\.column) where request.expands(column) {
                guard let index = shown.firstIndex(of: column) else { continue }
                expanded[column] = try labels.labels(of: column, values: rows.map { $0[index] }, in: table, runner: db)
            }
            return Page(columns: shown, rows: rows, addresses: Array(addresses.prefix(request.size)), next: next, count: count, sql: sql, labels: expanded)
            }
        } catch let error as DatabaseError where !request.columnSearches.isEmpty && error.resultCode == .SQLITE_ERROR {
            throw DatabaseSearchError(search: request.columnSearches[0].text, reason: error.message ?? "malformed query")
        }
    }

    /// One term per `_search_COL`: the rows whose full-text entry matches the text in that column
    /// (escaped as `_search` is, unless raw). None without a full-text index, as in Datasette.
    private func columnSearchTerms(rawSearch: Bool) -> [SQLClause] {
        guard let index = table.schema.fullTextTable, let rowID = table.schema.fullTextRowID else { return [] }
        let fts = SQLIdentifier.quoted(index)
        return request.columnSearches.map { column, text in
            let match = rawSearch ? text : DatabaseFullTextIndex.escapedQuery(text)
            return SQLClause(sql: "\(SQLIdentifier.quoted(rowID)) IN (SELECT rowid FROM \(fts) WHERE \(SQLIdentifier.quoted(column)) MATCH ?)", arguments: [.text(match)])
        }
    }

    /// One term per `_through`: this table's rows that a row of the through table with
    /// `column = value` refers to, by its foreign key to this table, as Datasette writes it.
    private func throughTerms(in db: any SQLSession) throws -> [SQLClause] {
        try request.throughs.map { through in
            let columns = try db.rows("SELECT name FROM pragma_table_info(?)", [.text(through.table)]).compactMap { $0[0].stringValue }
            guard columns.contains(through.column) else {
                throw Refusal(message: "Invalid _through - \(through.column) is not a column of \(through.table)")
            }
            let keys = try db.rows("SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE \"table\" = ? ORDER BY id, seq", [.text(through.table), .text(table.schema.name)])
            guard let key = keys.first, let from = key[0].stringValue else {
                throw Refusal(message: "Invalid _through - could not find corresponding foreign key")
            }
            // A foreign key without its columns named refers to the primary key.
            let to = key[1].stringValue ?? table.primaryKeys.first ?? DatasetteTable.rowIDName
            let sql = "\(table.expression(to)) IN (SELECT \(SQLIdentifier.quoted(from)) FROM \(SQLIdentifier.quoted(through.table)) WHERE \(SQLIdentifier.quoted(through.column)) = ?)"
            return SQLClause(sql: sql, arguments: [through.value])
        }
    }

    /// Refuses a `_search_COL` whose column the full-text index has not, with Datasette's message.
    private func checkColumnSearches(in db: any SQLSession) throws {
        guard let index = table.schema.fullTextTable, !request.columnSearches.isEmpty else { return }
        let columns = Set(try db.rows("SELECT name FROM pragma_table_info(?)", [.text(index)]).compactMap { $0[0].stringValue })
        if request.columnSearches.contains(where: { !columns.contains($0.column) }) {
            throw Refusal(message: "Cannot search by that column")
        }
    }

    /// Calls `body` with each row of `sql`: read from `db`, or, for a request with `_where`, run by
    /// the SQL page's runner (whose SQL has its values written in, ``withVisitorSQL(_:_:)``).
    private func eachRow(_ sql: String, _ arguments: [SQLValue], in db: any SQLSession, _ body: ([SQLValue]) throws -> Void) throws {
        guard let visitorSQL, !request.whereClauses.isEmpty else { return try db.forEachRow(sql, arguments) { try body(Array($0)) } }
        let result = try visitorSQL.run(sql, parameters: [:])
        for row in result.rows { try body(row) }
    }

    /// `clause` with its values written in as SQL literals, and `visitor` (the `_where` SQL) added.
    static func withVisitorSQL(_ clause: SQLClause, _ visitor: String) -> SQLClause {
        // Scalars, not Characters: a quote followed by a combining mark is one Character.
        var written = String.UnicodeScalarView()
        var values = clause.arguments.makeIterator()
        var quote: Unicode.Scalar?
        for scalar in clause.sql.unicodeScalars {
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "'" || scalar == "\"" {
                quote = scalar
            } else if scalar == "?", let value = values.next() {
                written.append(contentsOf: literal(value).unicodeScalars)
                continue
            }
            written.append(scalar)
        }
        let sql = String(written)
        return SQLClause(sql: (sql.isEmpty ? " WHERE " : sql + " AND ") + visitor, arguments: [])
    }

    /// `text` as an SQL string literal: each `'` scalar doubled (a quote with a combining mark
    /// after it is one Character, which a Character-wise replacement would leave alone), up to
    /// its first zero.
    static func quoted(_ text: String) -> String {
        // Up to a zero: the text the page's own reads bind (SQLite reads bound text and a
        // statement to their first zero byte).
        var out = String.UnicodeScalarView(["'"])
        for scalar in text.unicodeScalars.prefix(while: { $0 != "\u{0}" }) {
            if scalar == "'" { out.append("'") }
            out.append(scalar)
        }
        out.append("'")
        return String(out)
    }

    /// `data` as an SQL blob literal, `X'…'`.
    private static func hex(_ data: Data) -> String {
        "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
    }

    /// `value` as an SQL literal that reads back as the same value and type.
    static func literal(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let double) where double.isFinite: "\(double)"
        case .real(let double) where double.isNaN: "NULL"  // SQLite stores NaN as NULL
        case .real(let double): double < 0 ? "-9e999" : "9e999"
        case .text(let text): quoted(text)
        case .blob(let data): hex(data)
        case .bool(let flag): flag ? "1" : "0"
        }
    }

    /// Counts the facets `facets` asks for and finds the suggestions among the filtered rows,
    /// `rowCount` of them.
    func read(_ facets: DatasetteFacets, rowCount: Int) throws -> DatasetteFacets.Result {
        let reader = DatabaseTableReader(database: database, schema: table.schema, query: try pageQuery())
        return try facets.read(reader, rowCount: rowCount, table: table)
    }

    /// The filters and search as the page's query.
    private func pageQuery() throws -> DatabaseTableQuery {
        do {
            let parameters = try DatabaseTableQuery.resolve(request.filterItems, schema: table.schema)
            return DatabaseTableQuery(variant: parameters, schema: table.schema)
        } catch {
            throw Refusal(message: error.message)
        }
    }

    /// The rows after the row `token` names, in the page's order.
    private func keyset(after token: String) throws -> SQLClause {
        let raw = token.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var components = try raw.map { part in
            guard let decoded = TildeEncoding.decode(part) else { throw Refusal(message: "_next is not a row of this table: \(token)") }
            return decoded
        }
        let address = table.addressColumns
        var sortValue: SQLValue?
        if let sort = request.sort, components.count > 1 {
            sortValue = raw[0] == "$null" ? .null : DatabaseFilter.bound(components[0], affinity: table.affinity(of: sort.column))
            components.removeFirst()
        }
        guard components.count == address.count else { throw Refusal(message: "_next is not a row of this table: \(token)") }
        let keyValues = zip(address, components).map { DatabaseFilter.bound($1, affinity: table.affinity(of: $0)) }
        let keys = address.map(table.expression)
        let keyAfter = keys.count == 1
            ? SQLClause(sql: "\(keys[0]) > ?", arguments: keyValues)
            : SQLClause(sql: "(\(keys.joined(separator: ", "))) > (\(keys.map { _ in "?" }.joined(separator: ", ")))", arguments: keyValues)
        guard let sort = request.sort, let sortValue else { return keyAfter }
        let column = table.expression(sort.column)
        switch (sortValue.isNull, sort.descending) {
        case (true, false):
            return SQLClause(sql: "(\(column) IS NOT NULL OR (\(column) IS NULL AND \(keyAfter.sql)))", arguments: keyAfter.arguments)
        case (true, true):
            return SQLClause(sql: "(\(column) IS NULL AND \(keyAfter.sql))", arguments: keyAfter.arguments)
        case (false, false):
            return SQLClause(sql: "(\(column) > ? OR (\(column) = ? AND \(keyAfter.sql)))", arguments: [sortValue, sortValue] + keyAfter.arguments)
        case (false, true):
            return SQLClause(sql: "(\(column) < ? OR \(column) IS NULL OR (\(column) = ? AND \(keyAfter.sql)))", arguments: [sortValue, sortValue] + keyAfter.arguments)
        }
    }

    /// A value as Python's `str` writes it, which is how Datasette writes a key or sort value
    /// into a `_next` token.
    static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: "None"
        case .integer(let integer): String(integer)
        case .real(let double): DatasetteJSON.pythonRepr(double)
        case .text(let text): text
        case .blob(let data): String(decoding: data, as: UTF8.self)
        case .bool(let flag): flag ? "True" : "False"
        }
    }
}
