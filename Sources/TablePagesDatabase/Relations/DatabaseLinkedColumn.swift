import TableStore
import MicroHTTP
import TableKit

/// A column of a served table that refers to rows of another served table (a
/// ``DatabaseForeignKey`` resolved against both tables' schemas): what its values link to, and
/// how the referenced rows' labels are read (``DatabaseLabelReader``).
struct DatabaseLinkedColumn: Sendable, Hashable {
    /// How a value of the column becomes the URL of the row it refers to.
    enum Link: Sendable, Hashable {
        /// The value is the referenced row's id (the rowid, or a single integer key).
        case rowID
        /// The value is the referenced table's single-column key, encoded as a row id.
        case encodedKey
        /// The value is no row address (a unique column, or a key beside a rowid): the link is the
        /// referenced table's page filtered to the value, which shows that row.
        case filter
    }

    /// The referencing column.
    let column: String
    /// The referenced table (its page's name).
    let table: String
    /// The referenced column.
    let referencedColumn: String
    /// The referenced table's label column (``DatabaseLabelColumns``), nil when it has none.
    let labelColumn: String?
    /// How a value becomes a URL.
    let link: Link
    /// The referenced table's name quoted for SQL (qualified by its schema in PostgreSQL).
    let quotedTable: String
    /// The referenced column as a query reads it (``DatabaseTableSchema/selected(_:)``).
    let selectedReferenced: String
    /// The placeholder for a value compared with the referenced column.
    let referencedPlaceholder: String
    /// The label column as a query reads it; nil without a label column.
    let selectedLabel: String?

    /// `key` resolved against the referenced table's `referenced` schema and its label column.
    init(_ key: DatabaseForeignKey, referenced: DatabaseTableSchema, labelColumn: String?) {
        column = key.column
        table = referenced.name
        referencedColumn = key.referencedColumn
        self.labelColumn = labelColumn
        if referenced.keyIsRowID && referenced.rowIDColumn == key.referencedColumn {
            link = .rowID
        } else if !referenced.keyIsRowID && referenced.key == [key.referencedColumn] {
            link = .encodedKey
        } else {
            link = .filter
        }
        quotedTable = referenced.quotedName
        selectedReferenced = referenced.selected(key.referencedColumn)
        referencedPlaceholder = referenced.placeholder(for: key.referencedColumn)
        selectedLabel = labelColumn.map(referenced.selected)
    }

    /// The URL of the row that `value` refers to: `/pages/{table}/rows/{id}`, or the referenced
    /// table's page filtered to the value; nil for NULL and blobs, which refer to no row.
    func href(for value: SQLValue) -> String? {
        let page = PageContract.pagePath(named: DatabaseTablePages.pageName(ofTable: table))
        switch (link, value) {
        case (_, .null), (_, .blob):
            return nil
        case (.rowID, .integer(let id)):
            return page + "/rows/" + String(id)
        case (.encodedKey, _):
            return page + "/rows/" + PercentEncoding.encode(DatabaseValueCoding.encode([value]))
        case (.rowID, _), (.filter, _):
            guard let text = DatabaseLinkedColumn.text(of: value) else { return nil }
            return page + "?" + PercentEncoding.encode(referencedColumn + "__exact") + "=" + PercentEncoding.encode(text)
        }
    }

    /// A value as a filter spells it; nil for NULL and blobs.
    static func text(of value: SQLValue) -> String? {
        switch value {
        case .integer(let integer): String(integer)
        case .real(let double): String(double)
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null, .blob: nil
        }
    }
}
