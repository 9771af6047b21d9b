import TableKit
import TableStore

extension DatabaseTableReader {
    /// Where each linked column's value is in a row as the reader reads it (the key's values,
    /// then every column's).
    var linkedValueIndexes: [Int] {
        schema.linkedColumns.compactMap { link in schema.columns.firstIndex(of: link.column).map { schema.key.count + $0 } }
    }

    /// `rows` with each linked column's value labelled (``DatabaseRecordCell/labelled(_:label:expanded:extent:)``),
    /// the labels read in one query (``DatabaseLabelReader``); `linkedValues[i]` are the values of
    /// the `i`th linked column, one per row.
    func labelled(_ rows: [DatabaseSection.Row], linkedValues: [[SQLValue]], extent: DatabaseRecordCell.Extent, in db: any SQLSession) throws -> [DatabaseSection.Row] {
        guard !schema.linkedColumns.isEmpty, !rows.isEmpty else { return rows }
        let labels = try DatabaseLabelReader(linked: schema.linkedColumns, dialect: schema.dialect).labels(for: linkedValues, in: db)
        let shown = shownColumns(in: extent)
        let fields = schema.linkedColumns.map { shown.firstIndex(of: $0.column) }
        return rows.enumerated().map { position, row in
            var cell = cell(of: row)
            for (column, field) in fields.enumerated() {
                guard let field, cell.content.fields.indices.contains(field), linkedValues[column].indices.contains(position),
                      let key = DatabaseLinkedColumn.text(of: linkedValues[column][position]) else { continue }
                // `label` is nil for a row found whose label is NULL. A table without a label
                // column labels every value with its own text, as Datasette's JSON does.
                let noLabelColumn = schema.linkedColumns[column].labelColumn == nil
                guard let label = noLabelColumn ? (query.labels ? .some(key) : nil) : labels[column][key] else { continue }
                cell.content.fields[field] = DatabaseRecordCell.labelled(cell.content.fields[field], label: label, expanded: query.labels, extent: extent)
            }
            return DatabaseSection.Row(id: row.id, cell: cell)
        }
    }

    /// The row read as `values` (key, then columns) on its own page, its linked values labelled.
    func linked(_ values: [SQLValue], extent: DatabaseRecordCell.Extent, in db: any SQLSession) throws -> DatabaseSection.Row {
        let row = makeRow(values, extent: extent)
        return try labelled([row], linkedValues: linkedValueIndexes.map { [DatabaseLabelReader.key(values[$0])] }, extent: extent, in: db)[0]
    }

    /// `row`, read as `values`, with the counts of the rows of other tables that refer to it
    /// (``DatabaseIncomingLink``), counted in a read of their own: a table without an index on
    /// its referring column is scanned, and when that runs past the query time limit the row
    /// still shows, its links uncounted.
    func withIncomingLinks(_ row: DatabaseSection.Row, values: [SQLValue]) throws -> DatabaseSection.Row {
        let links = schema.incomingLinks
        guard !links.isEmpty else { return row }
        let referenced = links.map { link in
            schema.columns.firstIndex(of: link.referencedColumn).map { values[schema.key.count + $0] } ?? .null
        }
        var counts: [Int]?
        do {
            counts = try database.snapshot { db in try DatabaseIncomingLink.counts(links, values: referenced, in: db) }
        } catch is QueryTimeLimitExceeded {
            counts = nil
        }
        var cell = cell(of: row)
        cell.content.jsonProperties.append(DatabaseIncomingLink.jsonProperty(links, values: referenced, counts: counts))
        return DatabaseSection.Row(id: row.id, cell: cell)
    }
}
