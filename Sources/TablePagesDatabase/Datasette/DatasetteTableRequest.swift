import TableStore
import Foundation
import Escaping
import TableKit

/// What a request to Datasette's table JSON (`/{database}/{table}.json`) asks for, read from its
/// query as Datasette 0.65 reads it: the shape, the columns, the page size, where to continue,
/// the sort, and the filters and search, which the page's own ``DatabaseTableQuery`` turns into SQL.
struct DatasetteTableRequest: Sendable {
    /// How the rows are laid out (`_shape`).
    enum Shape: String, Sendable {
        /// The whole document, each row a list of values (the default).
        case arrays
        /// The whole document, each row an object.
        case objects
        /// Only the rows, as a list of objects.
        case array
        /// Only the rows, as an object keyed by each row's primary key path.
        case object
        /// Only the first value of each row, as a list.
        case arrayfirst

        /// Whether the answer is the rows alone, without the document around them.
        var isRowsOnly: Bool { self != .arrays && self != .objects }
    }

    var shape: Shape = .arrays
    /// Whether `_shape` was given: Datasette 1.0's document (``extras``) writes rows as objects
    /// unless asked for `arrays`.
    var shapeGiven = false
    /// Columns to show (`_col`, repeatable), after the primary key; nil for every column.
    var columns: [String]?
    /// Columns to leave out (`_nocol`, repeatable).
    var hiddenColumns: [String] = []
    /// Rows per page (`_size`, `max` for ``maxSize``).
    var size = DatasetteTableRequest.defaultSize
    /// Where the previous page ended (`_next`): the token of its last row.
    var next: String?
    /// The sort column (`_sort` or `_sort_desc`), and whether descending.
    var sort: (column: String, descending: Bool)?
    /// With `_shape=array`, one object per line (`_nl=on`).
    var newlineDelimited = false
    /// Whether `_labels` asked for foreign-key labels (see ``DatasetteLabels``).
    var labels = false
    /// Columns whose labels `_label` (repeatable) asked for, besides every column's with `_labels`.
    var labelledColumns: [String] = []
    /// Whether infinities are written as JSON's `Infinity` and `-Infinity` (`_json_infinity`),
    /// which Python reads, rather than `null`.
    var infinity = false
    /// Searches of one column of the full-text index (`_search_COL=text`), in the request's order;
    /// Datasette reads them only without `_search`.
    var columnSearches: [(column: String, text: String)] = []
    /// Datasette 1.0's extras the request names (`_extra`); empty for Datasette 0.65's document.
    var extras: Set<String> = []
    /// SQL conditions from the visitor (`_where`, repeatable), each run as the SQL page runs SQL.
    var whereClauses: [String] = []
    /// Rows linked through a many-to-many table (`_through={"table":…,"column":…,"value":…}`,
    /// repeatable): those another table's rows with `column = value` refer to.
    var throughs: [Through] = []
    /// The query items that pick rows (filters, `_search`, `_searchmode`), in the page's spelling.
    var filterItems: [(name: String, value: String)] = []
    /// Every query item but `_next`, in order: the base of the `next_url`.
    var itemsWithoutNext: [(name: String, value: String)] = []

    /// One `_through`: the rows of `table` whose `column` is `value` name this table's rows by a foreign key.
    struct Through: Sendable {
        var table: String
        var column: String
        var value: SQLValue

        /// Reads Datasette's JSON object.
        init(json: String) throws(Refusal) {
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            guard let object, let table = object["table"] as? String, let column = object["column"] as? String, let value = object["value"] else {
                throw Refusal(message: "_through must be a JSON object with \"table\", \"column\" and \"value\", e.g. {\"table\": \"tags_of_items\", \"column\": \"tag_id\", \"value\": 1}")
            }
            self.table = table
            self.column = column
            switch value {
            case let text as String: self.value = .text(text)
            case let number as NSNumber where ["d", "f"].contains(String(cString: number.objCType)): self.value = .real(number.doubleValue)
            case let number as NSNumber: self.value = .integer(number.int64Value)
            default: self.value = .null
            }
        }

        /// The value as Python's `str` writes it in Datasette's description.
        var text: String { DatasetteTableReader.text(value) }
    }

    /// Datasette's default page size.
    static let defaultSize = 100
    /// Datasette's `max_returned_rows`, what `_size=max` means and the largest size allowed.
    static let maxSize = 1000

    /// A mistake in the query, answered 400 with Datasette's message (in 1.0's error document when
    /// `extended`: a mistake in `_extra`).
    struct Refusal: Error {
        let message: String
        var extended = false
    }

    /// Parameters that Datasette reads and that leave the rows as they are (or that ``DatasetteFacets`` reads,
    /// such as `_facet`): never filters.
    private static let passedOver: Set<String> = ["_shape", "_col", "_nocol", "_size", "_next", "_sort", "_sort_desc", "_nl", "_labels", "_label", "_json", "_json_infinity", "_facet", "_facet_date", "_facet_array", "_facet_size", "_nocount", "_nofacet", "_nosuggest", "_trace", "_timelimit", "_ttl", "_hash", "_stream", "_dl", "_through", "_extra", "_where"]

    /// What a row page's query asks for (`/{database}/{table}/{pk}.json`): its shape and
    /// `_json_infinity`, as Datasette reads them there; the rest is not read.
    /// - Throws: ``Refusal`` for an unknown shape.
    init(rowQuery items: [(name: String, value: String)]) throws(Refusal) {
        for (name, value) in items {
            if name == "_shape" { shape = try Self.shape(value) }
            if name == "_json_infinity" { infinity = !value.isEmpty }
        }
    }

    private static func shape(_ value: String) throws(Refusal) -> Shape {
        guard let shape = Shape(rawValue: value) else { throw Refusal(message: "Invalid _shape: \(value)") }
        return shape
    }

    /// Reads `items` for `table`.
    /// - Throws: ``Refusal`` for an unknown shape or column, a bad size, or two sorts.
    init(_ items: [(name: String, value: String)], table: DatasetteTable) throws(Refusal) {
        for (name, value) in items {
            switch name {
            case "_shape":
                shape = try Self.shape(value)
                shapeGiven = true
            case "_col": columns = (columns ?? []) + [value]
            case "_nocol": hiddenColumns.append(value)
            case "_size":
                if value == "max" {
                    size = Self.maxSize
                } else {
                    guard let number = Int(value), number >= 0 else { throw Refusal(message: "_size must be a positive integer") }
                    guard number <= Self.maxSize else { throw Refusal(message: "_size must be <= \(Self.maxSize)") }
                    size = number
                }
            case "_next": next = value
            case "_nl": newlineDelimited = !value.isEmpty
            case "_labels": labels = ["on", "1", "true", "yes"].contains(value.lowercased())
            case "_label": labelledColumns.append(value)
            case "_json_infinity": infinity = !value.isEmpty
            case "_through": throughs.append(try Through(json: value))
            case "_where": whereClauses.append(value)
            default: break
            }
            if name != "_next" { itemsWithoutNext.append((name, value)) }
        }
        let query = Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        switch (query["_sort"], query["_sort_desc"]) {
        case (let column?, nil): sort = (try Self.sortable(column, in: table), false)
        case (nil, let column?): sort = (try Self.sortable(column, in: table), true)
        case (nil, nil): break
        default: throw Refusal(message: "Cannot use _sort and _sort_desc at the same time")
        }
        if let columns {
            let unknown = columns.filter { !table.columns.contains($0) }
            guard unknown.isEmpty else { throw Refusal(message: "_col=\(unknown.joined(separator: ", ")) - invalid columns") }
        }
        let badHidden = hiddenColumns.filter { !table.columns.contains($0) || table.primaryKeys.contains($0) }
        guard badHidden.isEmpty else { throw Refusal(message: "_nocol=\(badHidden.joined(separator: ", ")) - invalid columns") }
        extras = DatasetteExtras.requested(items)
        if let refusal = DatasetteExtras.refusal(extras) { throw Refusal(message: refusal, extended: true) }
        let searchPrefix = DatabaseTableQuery.searchParameter + "_"
        if !items.contains(where: { $0.name == DatabaseTableQuery.searchParameter }) {
            columnSearches = items.filter { $0.name.hasPrefix(searchPrefix) }.map { (String($0.name.dropFirst(searchPrefix.count)), $0.value) }
        }
        filterItems = items.compactMap { item in
            guard !Self.passedOver.contains(item.name), !Self.hasUnknownOperator(item.name), !item.name.hasPrefix(searchPrefix) else { return nil }
            return (Self.filterName(item.name), item.value)
        }
    }

    /// Whether `name` is `column__lookup` with a lookup Datasette does not know (`content__bogus`,
    /// `a__exact__x`): Datasette passes over such a parameter, as if it were not there.
    static func hasUnknownOperator(_ name: String) -> Bool {
        guard let split = name.range(of: "__", options: [.backwards, .literal]) else { return false }
        return DatabaseFilter.Operator(rawValue: String(name[split.upperBound...])) == nil
    }

    /// Whether the values of `column` are written with their labels (`_labels`, `_label`).
    func expands(_ column: String) -> Bool {
        labels || labelledColumns.contains(column)
    }

    /// The columns a row shows, as Datasette selects them: every column, or the primary key then
    /// the `_col` columns (once each), less the `_nocol` ones; `rowid` first for a rowid table.
    func shownColumns(of table: DatasetteTable) -> [String] {
        var shown = table.columns
        if let columns {
            var seen: Set<String> = []
            shown = table.primaryKeys + columns.filter { seen.insert($0).inserted }
        }
        shown = shown.filter { !hiddenColumns.contains($0) }
        return table.usesRowID ? [DatasetteTable.rowIDName] + shown : shown
    }

    /// A filter's name as the page reads it: Datasette takes every name without `_` for a column,
    /// where the page reserves a few (`sort`, `group`, `limit`…) and reads them with `__exact`.
    private static func filterName(_ name: String) -> String {
        guard !name.contains("__") else { return name }
        let reserved = PageContract.Query.all.contains(name) || name == DatabaseTableQuery.sortParameter || name == DatabaseTableQuery.groupParameter
        return reserved ? name + "__exact" : name
    }

    /// `column` when the table may be sorted by it (any column, and `rowid` on a rowid table).
    private static func sortable(_ column: String, in table: DatasetteTable) throws(Refusal) -> String {
        guard table.columns.contains(column) || (table.usesRowID && column == DatasetteTable.rowIDName) else {
            throw Refusal(message: "Cannot sort table by \(column)")
        }
        return column
    }
}
