/// The one walk over the delegate tree that every output format shares.
struct TableWalker {
    let table: TableAdapter

    /// Walks every section, each limited to `rowLimit` rows.
    func walkTable<Emitter: TableEmitter>(rowLimit: Int?, emitter: inout Emitter, into out: inout OutputBuffer) {
        let heading = TableHeading(
            title: table.root.titleForTable() ?? table.title, version: table.version, index: sectionIndex(),
            headerView: table.root.headerViewForTable(), properties: table.root.jsonPropertiesForTable()
        )
        emitter.beginTable(heading, into: &out)
        for section in 0..<max(0, table.root.numberOfSections()) {
            walkSection(section, from: 0, limit: rowLimit, emitter: &emitter, into: &out)
        }
        emitter.endTable(into: &out)
    }

    /// Walks one section from row `start`, at most `limit` rows, announcing what follows.
    func walkSection<Emitter: TableEmitter>(
        _ section: Int, from start: Int, limit: Int?, emitter: inout Emitter, into out: inout OutputBuffer
    ) {
        let record = table.sectionRecord(at: section)
        let first = min(max(0, start), record.rowCount)
        let end = limit.map { min(record.rowCount, first + max(0, $0)) } ?? record.rowCount
        // Rows a window data source does not hold are still to come: counted, never walked.
        let afterWindow = max(0, table.root.numberOfRowsAfterWindow(inSection: section) ?? 0)
        var announced = record
        announced.rowCount += afterWindow
        emitter.beginSection(announced, into: &out)
        var last: RowID?
        let root = table.root
        // The first row's record stands for every other row's but for its id and fields.
        var template: RowRecord?
        var uniform = first < end && root.hasUniformRows(inSection: section)
        for row in first..<end {
            let indexPath = TableIndexPath(section: section, row: row)
            if let template {
                let id = root.rowID(forRowAt: indexPath)
                let written = emitter.row(like: template, id: id, at: indexPath, in: record, into: &out) { fields in
                    root.writeFields(forRowAt: indexPath, into: &fields)
                }
                if written {
                    last = id
                    continue
                }
                // The emitter needs cells (HTML): every row is made whole.
                uniform = false
            }
            let rowRecord = table.rowRecord(at: indexPath)
            emitter.row(rowRecord, at: indexPath, in: record, into: &out)
            last = rowRecord.id
            // Links differ from row to row, and a template writes its own.
            template = uniform && rowRecord.link == nil ? rowRecord : nil
        }
        var next: NextPage?
        if (limit != nil && end < record.rowCount) || afterWindow > 0 {
            let following = TableIndexPath(section: section, row: end)
            next = NextPage(
                section: record.id,
                after: last ?? (first > 0 ? table.root.rowID(forRowAt: TableIndexPath(section: section, row: first - 1)) : nil),
                limit: max(1, limit ?? record.rowCount),
                remaining: record.rowCount - end + afterWindow,
                estimatedRowHeight: table.root.estimatedHeightForRow(at: following) ?? table.root.heightForRow(at: following)
            )
        }
        emitter.endSection(record, next: next, into: &out)
    }

    /// Emits one row on its own.
    func walkRow<Emitter: TableEmitter>(at indexPath: TableIndexPath, emitter: inout Emitter, into out: inout OutputBuffer) {
        let section = table.sectionRecord(at: indexPath.section)
        emitter.row(table.rowRecord(at: indexPath), at: indexPath, in: section, into: &out)
    }

    private func sectionIndex() -> [SectionIndexEntry] {
        guard let titles = table.root.sectionIndexTitles() else { return [] }
        let sectionCount = table.root.numberOfSections()
        return titles.enumerated().compactMap { position, title in
            let section = table.root.section(forSectionIndexTitle: title, at: position)
            guard (0..<sectionCount).contains(section) else { return nil }
            return SectionIndexEntry(title: title, section: table.root.sectionID(forSection: section))
        }
    }
}
