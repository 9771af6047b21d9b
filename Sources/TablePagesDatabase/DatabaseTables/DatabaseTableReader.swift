import GRDB
import TableKit
import TableStore

/// Reads one variant of a database table: the first rows of each section, and any page of rows
/// after a given row, by keyset — `WHERE (sort, key) > (last sort, last key) ORDER BY sort, key
/// LIMIT n` — never by OFFSET, so a page deep in the table costs what the first page costs.
///
/// The key (the rowid, a WITHOUT ROWID table's primary key, or a PostgreSQL table's primary key) is
/// always indexed. A `sort` or `group` on another column is fast only with an index on that column
/// (on `(group, sort)` for both); without one, the database scans the table for every page.
///
/// The SQL is written once for both databases, in the schema's ``SQLDialect``, and run by an
/// `SQLReader`: placeholders are `?` (a PostgreSQL database numbers them), values
/// compared with a column go through ``placeholder(for:)``, and NULL sorts first ascending in both.
///
/// How many rows follow a page sizes the client's placeholder. Counting them exactly would scan
/// the rest of the table, so counts stop at ``countBound``: below it they are exact; above it the
/// rows before the page are counted instead (remaining = section total − rows before), and when
/// both sides are larger the page is somewhere in the middle and half the section is the estimate.
/// In key order on a rowid table the count is not walked when the key says the page is far from
/// the end: the rows that follow are estimated from where the page's last key lies between the
/// table's smallest and largest key (see `interpolatedRows`), two index look-ups instead of up to
/// 2 × ``countBound`` rows read for every page.
struct DatabaseTableReader: Sendable {
    let database: any SQLReader
    let schema: DatabaseTableSchema
    let query: DatabaseTableQuery

    init(database: any SQLReader, schema: DatabaseTableSchema, query: DatabaseTableQuery) {
        self.database = database
        self.schema = schema
        self.query = query
    }

    /// A reader of a SQLite store's table.
    init(store: Store, schema: DatabaseTableSchema, query: DatabaseTableQuery) {
        self.init(database: store, schema: schema, query: query)
    }

    /// Rows of an ungrouped page held by its live table: enough for the largest `limit`.
    static let windowRows = 1000
    /// Rows per section held by a grouped page's live table.
    static let groupedWindowRows = 100
    /// The most sections (groups) a page shows; groups after these are left out.
    static let maxSections = 100
    /// Where row counting stops being exact (see the type's description).
    static let countBound = 10_000
    /// The section id of an ungrouped page.
    static let ungroupedSection: SectionID = "all"

    /// The first rows of every section, with each section's row count.
    func window() throws -> [DatabaseSection] {
        try readingSearch { db in
            let filter = filterClause()
            var sections: [(id: SectionID, value: SQLValue?, total: Int)] = []
            if let group = query.group {
                let column = SQLIdentifier.quoted(group)
                let sql = "SELECT \(schema.selected(group)), count(*) FROM \(schema.quotedName)\(filter.sql) GROUP BY \(column) ORDER BY \(schema.ordered(group))\(schema.nullOrder(of: group, descending: false)) LIMIT \(Self.maxSections)"
                for row in try db.rows(sql, filter.arguments) {
                    let value = row[0]
                    sections.append((SectionID(DatabaseValueCoding.encode([value])), value, row[1].intValue ?? 0))
                }
            } else {
                let total = try db.count("SELECT count(*) FROM \(schema.quotedName)\(filter.sql)", filter.arguments)
                sections.append((Self.ungroupedSection, nil, total))
            }
            let limit = query.group == nil ? Self.windowRows : Self.groupedWindowRows
            return try sections.map { section in
                let rows = try fetchRows(db, groupValue: section.value, after: nil, limit: limit)
                return DatabaseSection(
                    id: section.id, headerTitle: headerTitle(section.value), rows: rows,
                    rowsAfter: max(0, section.total - rows.count), total: section.total
                )
            }
        }
    }

    /// The rows of `section` after `after` (from its first row when nil), at most `limit`.
    /// - Parameter total: the section's row count when known, to estimate the rows that follow.
    /// - Throws: ``/TableKit/TableError/unknownSection(_:)`` when `section` names no section of
    ///   this variant, ``/TableKit/TableError/unknownRow(_:)`` when `after` is not a key of this
    ///   table, or (with `sort`) names no row. Without `sort` the key is only a keyset bound: rows
    ///   after a deleted (or another section's) key are still the rows that follow it in key order.
    func page(of section: SectionID, after: RowID?, limit: Int, total: Int?) throws -> DatabaseSection {
        if schema.isView {
            return try viewPage(of: section, after: after, limit: limit, total: total)
        }
        let groupValue = try self.groupValue(of: section)
        let afterKey = try after.map { row in
            guard let key = key(of: row) else { throw TableError.unknownRow(row) }
            return key
        }
        // Its statements need not agree: the page is one statement, and what follows it an estimate.
        return try readingSearch(inSnapshot: false) { db in
            var position: Position?
            if let after, let afterKey {
                guard let found = try self.position(ofKey: afterKey, in: db) else { throw TableError.unknownRow(after) }
                position = found
            }
            return try self.section(section, groupValue: groupValue, after: position, limit: limit, total: total, in: db)
        }
    }

    /// The rows of `section` from `start` on (counted from 0 in the page's order), at most `limit`;
    /// none when `start` is past the end. The row before `start` is found by `LIMIT 1 OFFSET` over
    /// only the sort and key columns, so an index on them (the key's own b-tree in key order)
    /// serves it without reading the rows, a walk of `start` index entries bounded by the query
    /// time limit (about 50 ms to the middle of a million-row SQLite table in key order); the
    /// rows are then read by keyset after it, as every other page is.
    /// - Parameter total: the section's row count when known, to estimate the rows that follow.
    /// - Throws: ``/TableKit/TableError/unknownSection(_:)`` when `section` names no section of this variant.
    func page(of section: SectionID, from start: Int, limit: Int, total: Int?) throws -> DatabaseSection {
        let groupValue = try self.groupValue(of: section)
        if schema.isView {
            return try readingSearch { db in
                try self.section(section, groupValue: groupValue, after: Position(key: [], offset: start), limit: limit, total: total, in: db)
            }
        }
        return try readingSearch { db in
            var position: Position?
            if start > 0 {
                guard let found = try self.position(at: start - 1, groupValue: groupValue, in: db) else {
                    return DatabaseSection(id: section, headerTitle: headerTitle(groupValue), rows: [], rowsAfter: 0, total: total)
                }
                position = found
            }
            return try self.section(section, groupValue: groupValue, after: position, limit: limit, total: total, in: db)
        }
    }

    /// The rows of `section` after `position` (from its first row when nil), at most `limit`, with
    /// an estimate of the rows that follow them.
    func section(_ section: SectionID, groupValue: SQLValue?, after position: Position?, limit: Int, total: Int?, in db: any SQLSession) throws -> DatabaseSection {
        let rows = try fetchRows(db, groupValue: groupValue, after: position, limit: limit)
        var rowsAfter = 0
        if schema.isView {
            rowsAfter = try viewRowsAfter(position?.offset ?? 0, read: rows.count, limit: limit, total: total, in: db)
        } else if rows.count == limit, let last = rows.last, let lastKey = key(of: last.id),
           let lastPosition = try self.position(ofKey: lastKey, in: db) {
            rowsAfter = try estimateRows(after: lastPosition, groupValue: groupValue, total: total, in: db)
        }
        return DatabaseSection(id: section, headerTitle: headerTitle(groupValue), rows: rows, rowsAfter: rowsAfter, total: total)
    }

    /// The row with id `row`, every value shown as on the row's own URL (whole up to
    /// ``DatabaseRecordCell/maxRowValueBytes``), whichever section it is in.
    /// - Throws: ``/TableKit/TableError/unknownRow(_:)`` when no row of the table has that id.
    func record(_ row: RowID) throws -> DatabaseSection.Row {
        if schema.isView { return try viewRecord(row) }
        guard let key = key(of: row) else { throw TableError.unknownRow(row) }
        let (record, values) = try database.snapshot { db in
            let sql = "SELECT \(selectedColumns) FROM \(schema.quotedName) WHERE \(keyComparison("=")) LIMIT 1"
            guard let found = try db.row(sql, key) else {
                throw TableError.unknownRow(row)
            }
            return (try linked(found.values, extent: .row, in: db), found.values)
        }
        return try withIncomingLinks(record, values: values)
    }

    /// Reads with `body`, in one snapshot unless `inSnapshot` is false
    /// (``/TableStore/SQLReader/readWithoutSnapshot(_:)``); with a raw search, SQLite's refusal of
    /// the query (FTS5 syntax, an unknown column filter in it) is the client's mistake, a
    /// ``DatabaseSearchError``.
    func readingSearch<T: Sendable>(inSnapshot: Bool = true, _ body: (any SQLSession) throws -> T) throws -> T {
        do {
            return try inSnapshot ? database.snapshot(body) : database.readWithoutSnapshot(body)
        } catch let error as DatabaseError where query.rawSearch && error.resultCode == .SQLITE_ERROR {
            throw DatabaseSearchError(search: query.search ?? "", reason: error.message ?? "malformed query")
        }
    }

    // MARK: Identifiers

    /// The group value a section id stands for; nil for the ungrouped page's section.
    func groupValue(of section: SectionID) throws -> SQLValue? {
        if query.group == nil {
            guard section == Self.ungroupedSection else { throw TableError.unknownSection(section) }
            return nil
        }
        guard let value = DatabaseValueCoding.decode(section.rawValue, count: 1)?.first else { throw TableError.unknownSection(section) }
        return value
    }

    /// The id of the row whose key has `values`.
    private func rowID(key values: some Collection<SQLValue>) -> RowID {
        RowID(schema.rowID(ofKey: values))
    }

    /// The key values a row id encodes, or nil when it is not a row id of this table.
    private func key(of row: RowID) -> [SQLValue]? {
        schema.key(ofRowID: row.rawValue)
    }

    func headerTitle(_ groupValue: SQLValue?) -> String? {
        guard let group = query.group, let groupValue else { return nil }
        return DatabaseRecordCell.headerTitle(column: group, value: groupValue)
    }

    // MARK: Queries

    /// Where a row stands in the page's order: its sort value (when sorted by a column) and key.
    struct Position {
        var sortValue: SQLValue?
        var key: [SQLValue]
        /// In a view, which has no key: the rows before the position in the page's order.
        var offset = 0
    }

    private var quotedKey: [String] { schema.key.map(SQLIdentifier.quoted) }

    /// The key columns, then every column: what a row is read with (see ``makeRow(_:extent:)``).
    var selectedColumns: String { (schema.key + schema.columns).map(schema.selected).joined(separator: ", ") }

    /// The position of the row with key `key`, or nil when there is no such row.
    private func position(ofKey key: [SQLValue], in db: any SQLSession) throws -> Position? {
        guard let sort = query.sort else { return Position(sortValue: nil, key: key) }
        let sql = "SELECT \(schema.selected(sort)) FROM \(schema.quotedName) WHERE \(keyComparison("=")) LIMIT 1"
        guard let row = try db.row(sql, key) else { return nil }
        return Position(sortValue: row[0], key: key)
    }

    /// The position of the row `index` rows after the section's first (counted from 0), or nil
    /// when the section has no more rows than that.
    private func position(at index: Int, groupValue: SQLValue?, in db: any SQLSession) throws -> Position? {
        let clause = whereClause(groupValue: groupValue, after: nil)
        let columns = (query.sort.map { [$0] } ?? []) + schema.key
        let sql = "SELECT \(columns.map(schema.selected).joined(separator: ", ")) FROM \(schema.quotedName)\(clause.sql)\(orderBy()) LIMIT 1 OFFSET \(schema.dialect.placeholder(type: "bigint"))"
        guard let row = try db.row(sql, clause.arguments + [.integer(index)], keepsPrepared: hasBoundedSQL) else { return nil }
        guard query.sort != nil else { return Position(sortValue: nil, key: row.values) }
        return Position(sortValue: row.first, key: Array(row.dropFirst()))
    }

    /// `WHERE` with the filters, or nothing.
    func filterClause() -> SQLClause {
        SQLClause(whereAll: filterTerms())
    }

    /// One term per filter (``DatabaseFilter/clause(in:)``), and one for the search: the
    /// rows whose full-text rowid the FTS table matches.
    func filterTerms() -> [SQLClause] {
        var terms = query.filters.map { $0.clause(in: schema) }
        if let search = query.search, let table = schema.fullTextTable, let rowID = schema.fullTextRowID {
            let fts = SQLIdentifier.quoted(table)
            let match = query.rawSearch ? search : DatabaseFullTextIndex.escapedQuery(search)
            terms.append(SQLClause(sql: "\(SQLIdentifier.quoted(rowID)) IN (SELECT rowid FROM \(fts) WHERE \(fts) MATCH ?)", arguments: [.text(match)]))
        }
        return terms
    }

    /// The filters, the section's group value, and (when given) rows after `position` in the page's
    /// order (reversed when `reversed`): the rows a page or a count is about.
    func whereClause(groupValue: SQLValue?, after position: Position?, reversed: Bool = false) -> SQLClause {
        var terms = filterTerms()
        if let group = query.group {
            terms.append(SQLClause(sql: "\(SQLIdentifier.quoted(group)) \(schema.dialect.nullSafeEquals) \(schema.placeholder(for: group))", arguments: [groupValue ?? .null]))
        }
        if let position, !schema.isView {
            terms.append(keysetClause(after: position, descending: query.descending != reversed))
        }
        return SQLClause(whereAll: terms)
    }

    /// Rows after `position` in the order `sort, key` (descending when asked). NULL comes first in
    /// ascending order and last in descending order (SQLite's rule; PostgreSQL is told so by
    /// ``SQLDialect/nullOrder(descending:)``); the key is never NULL. The range on
    /// the sort column comes first so an index on it can serve the query.
    private func keysetClause(after position: Position, descending: Bool) -> SQLClause {
        let keyAfter = keyComparison(descending ? "<" : ">")
        guard let sort = query.sort else { return SQLClause(sql: keyAfter, arguments: position.key) }
        let column = SQLIdentifier.quoted(sort)
        let value = position.sortValue ?? .null
        let placeholder = schema.placeholder(for: sort)
        switch (value.isNull, descending) {
        case (true, false):
            return SQLClause(sql: "(\(column) IS NOT NULL OR \(keyAfter))", arguments: position.key)
        case (true, true):
            return SQLClause(sql: "(\(column) IS NULL AND \(keyAfter))", arguments: position.key)
        case (false, false):
            return SQLClause(sql: "(\(column) >= \(placeholder) AND (\(column) > \(placeholder) OR \(keyAfter)))", arguments: [value, value] + position.key)
        case (false, true) where schema.nullOrder(of: sort, descending: true).isEmpty && schema.dialect == .postgresql:
            // A column without NULLs: no `OR … IS NULL`, which keeps PostgreSQL from using an index on it.
            return SQLClause(sql: "(\(column) <= \(placeholder) AND (\(column) < \(placeholder) OR \(keyAfter)))", arguments: [value, value] + position.key)
        case (false, true):
            return SQLClause(sql: "((\(column) <= \(placeholder) AND (\(column) < \(placeholder) OR \(keyAfter))) OR \(column) IS NULL)", arguments: [value, value] + position.key)
        }
    }

    /// `key op ?`, or `(k1, k2) op (?, ?)` for a composite key.
    private func keyComparison(_ comparison: String) -> String {
        let key = quotedKey
        let placeholders = schema.key.map(schema.placeholder(for:))
        if key.count == 1 { return "\(key[0]) \(comparison) \(placeholders[0])" }
        return "(\(key.joined(separator: ", "))) \(comparison) (\(placeholders.joined(separator: ", ")))"
    }

    func orderBy(reversed: Bool = false) -> String {
        let descending = query.descending != reversed
        let terms = (query.sort.map { [$0] } ?? []) + schema.key
        // A view without a sort keeps its own order (its ORDER BY, if any).
        guard !terms.isEmpty else { return "" }
        return " ORDER BY " + terms.map { schema.ordered($0) + (descending ? " DESC" : "") + schema.nullOrder(of: $0, descending: descending) }.joined(separator: ", ")
    }

    func fetchRows(_ db: any SQLSession, groupValue: SQLValue?, after position: Position?, limit: Int) throws -> [DatabaseSection.Row] {
        let clause = whereClause(groupValue: groupValue, after: position)
        // The limit is bound, not spelled, so that every page of a variant is one SQL text (values
        // reach PostgreSQL as text, hence its cast there).
        let bigint = schema.dialect.placeholder(type: "bigint")
        var sql = "SELECT \(selectedColumns) FROM \(schema.quotedName)\(clause.sql)\(orderBy()) LIMIT \(bigint)"
        var arguments = clause.arguments + [.integer(limit)]
        let offset = schema.isView ? position?.offset ?? 0 : 0
        if schema.isView {
            sql += " OFFSET \(bigint)"
            arguments.append(.integer(offset))
        }
        var rows: [DatabaseSection.Row] = []
        rows.reserveCapacity(limit)
        let linkedIndexes = linkedValueIndexes
        var linkedValues = Array(repeating: [SQLValue](), count: linkedIndexes.count)
        // A cursor, row by row: each row's long values are cut as it is read, so only one row's
        // whole values are ever held (and the linked columns' values, to read their labels).
        try db.forEachRow(sql, arguments, keepsPrepared: hasBoundedSQL) { row in
            let id = schema.isView ? RowID(String(offset + rows.count)) : nil
            rows.append(makeRow(row.values, extent: .page, id: id))
            for (column, index) in linkedIndexes.enumerated() { linkedValues[column].append(DatabaseLabelReader.key(row[index])) }
        }
        return try labelled(rows, linkedValues: linkedValues, extent: .page, in: db)
    }

    /// Whether the variant's SQL texts are bounded by the schema: without filters, search or
    /// group, a read is spelled by the table, the sort column and direction, and whether it starts
    /// after a row. Filters spell unboundedly many texts (combinations of columns and operators,
    /// an `__in` list's length). Bounded texts are kept prepared (`SQLSession.forEachRow`'s `keepsPrepared`):
    /// preparing the SQL of a page of rows was about a tenth of its CPU time in SQLite.
    private var hasBoundedSQL: Bool {
        query.filters.isEmpty && query.search == nil && query.group == nil
    }

    /// A row from its key values followed by its column values: in a page, without the
    /// columns the page hides (``DatabaseTableQuery/hiddenColumns``); on its own URL, every column.
    /// `id` names a view's row, which has no key. A page's row whose values it shows whole keeps
    /// them and makes its cell only when asked (``DatabaseSection/Row/Content/values(_:)``).
    func makeRow(_ values: [SQLValue], extent: DatabaseRecordCell.Extent, id: RowID? = nil) -> DatabaseSection.Row {
        let id = id ?? rowID(key: values.prefix(schema.key.count))
        if extent == .page, values.allSatisfy(DatabaseRecordCell.isShownWhole) {
            return DatabaseSection.Row(id: id, values: values)
        }
        return DatabaseSection.Row(id: id, cell: cell(ofValues: values, extent: extent))
    }

    /// The cell of a row.
    func cell(of row: DatabaseSection.Row) -> TableCell {
        switch row.content {
        case .cell(let cell): cell
        case .values(let values): cell(ofValues: values, extent: .page)
        }
    }

    /// Writes the fields of a row's cell, as JSON output writes those of ``cell(of:)``.
    func writeFields(of row: DatabaseSection.Row, into fields: inout JSONFieldWriter) {
        guard case .values(let values) = row.content else {
            for field in cell(of: row).content.fields {
                fields.write(field.name, field.json ?? .string(field.value))
            }
            return
        }
        let keyCount = schema.key.count
        if query.hiddenColumns.isEmpty {
            // Straight from the row: this runs for every row of every page.
            for (position, column) in schema.columns.enumerated() {
                fields.write(column, DatabaseRecordCell.json(ofWhole: values[keyCount + position]))
            }
        } else {
            for (position, column) in schema.columns.enumerated() where !query.hiddenColumns.contains(column) {
                fields.write(column, DatabaseRecordCell.json(ofWhole: values[keyCount + position]))
            }
        }
    }

    /// The cell of a row read as `values`, shown in `extent`.
    private func cell(ofValues values: [SQLValue], extent: DatabaseRecordCell.Extent) -> TableCell {
        let keyCount = schema.key.count
        if extent == .page, !query.hiddenColumns.isEmpty {
            // Hidden columns are read all the same (a sort or a label may need them), only not shown.
            let shown = Array(values.dropFirst(keyCount))
            let kept = schema.columns.indices.filter { !query.hiddenColumns.contains(schema.columns[$0]) }
            return DatabaseRecordCell.cell(columns: kept.map { schema.columns[$0] }, values: kept.map { shown[$0] }, extent: extent)
        }
        // Straight from the row: this runs for every row of every page.
        return DatabaseRecordCell.cell(columns: schema.columns, values: values.dropFirst(keyCount), extent: extent)
    }

    /// The columns a row shows in `extent`, in order: in a page, those it does not hide.
    func shownColumns(in extent: DatabaseRecordCell.Extent) -> [String] {
        extent == .page && !query.hiddenColumns.isEmpty ? schema.columns.filter { !query.hiddenColumns.contains($0) } : schema.columns
    }

    /// How many rows follow `position`: exact below ``countBound``, estimated above it.
    private func estimateRows(after position: Position, groupValue: SQLValue?, total: Int?, in db: any SQLSession) throws -> Int {
        let bound = Self.countBound
        // Twice the bound leaves room for gaps in the keys (and filtered rows bunched towards the
        // end): where the estimate says the end may be near, the rows are counted as below.
        var interpolated: Int?
        if let total, total > bound {
            interpolated = try interpolatedRows(after: position, total: total, in: db)
        }
        if let interpolated, interpolated >= 2 * bound { return interpolated }
        let following = try boundedCount(after: position, groupValue: groupValue, reversed: false, in: db)
        guard following >= bound else { return following }
        guard let total else { return bound }
        // The same trust in the key range before the position as after it: far from the start,
        // counting back would walk the bound for nothing.
        if let interpolated, total - interpolated - 1 >= 2 * bound { return max(bound, interpolated) }
        let preceding = try boundedCount(after: position, groupValue: groupValue, reversed: true, in: db)
        if preceding < bound { return max(bound, total - preceding - 1) }
        // Deep on both sides: where the key lies in the key range says more than "the middle".
        return max(bound, interpolated ?? total / 2)
    }

    /// The rows after `position` estimated from its key, when the page is in ascending key order on
    /// a rowid table (the order of the keys is the order of the rows): `total` times the part of
    /// the key range, from the table's smallest to its largest rowid, that lies after the key. It
    /// is exact for a table without gaps in its keys and no filter, and costs two look-ups at the
    /// ends of the table's b-tree, where counting walks up to ``countBound`` rows in each direction:
    /// in SQLite about 6× the reading of the page's 100 rows, and half the server's CPU time for a
    /// deep page of a million-row table (`Benchmarks/datasette.sh`, case (a)). Nil in any other
    /// order, or for an empty table.
    func interpolatedRows(after position: Position, total: Int, in db: any SQLSession) throws -> Int? {
        guard query.sort == nil, !query.descending, schema.keyIsRowID, position.key.count == 1,
              case .integer(let last) = position.key[0] else { return nil }
        let key = quotedKey[0]
        // Two subqueries: SQLite finds `min` and `max` at the b-tree's ends only when each is alone.
        // One text per table (tables are read once, when registered): kept prepared.
        let sql = "SELECT (SELECT min(\(key)) FROM \(schema.quotedName)), (SELECT max(\(key)) FROM \(schema.quotedName))"
        guard let ends = try db.row(sql, [], keepsPrepared: true), ends.count == 2,
              case .integer(let lowest) = ends[0], case .integer(let highest) = ends[1], highest >= lowest else { return nil }
        let after = Double(highest) - Double(min(max(last, lowest - 1), highest))
        return Int((Double(total) * after / (Double(highest) - Double(lowest) + 1)).rounded())
    }

    /// Rows after `position` (before it when `reversed`), counted up to ``countBound``: walking
    /// the order from the position, so it costs at most that many index steps.
    private func boundedCount(after position: Position, groupValue: SQLValue?, reversed: Bool, in db: any SQLSession) throws -> Int {
        let clause = whereClause(groupValue: groupValue, after: position, reversed: reversed)
        // PostgreSQL wants the subquery named.
        let sql = "SELECT count(*) FROM (SELECT 1 FROM \(schema.quotedName)\(clause.sql)\(orderBy(reversed: reversed)) LIMIT \(Self.countBound)) AS counted"
        return try db.count(sql, clause.arguments)
    }
}
