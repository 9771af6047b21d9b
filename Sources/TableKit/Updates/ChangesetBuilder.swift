/// Checks a batch against UIKit's rules and turns it into identifier-based operations.
///
/// Index paths are matched the way UIKit does: deletes, reloads and move sources against the
/// snapshot before the batch, inserts and move destinations against the one after. Rows and
/// sections that are neither inserted, deleted nor moved keep their relative order, which gives
/// the old → new mapping; when an identifier at a mapped position changed anyway, the element is
/// deleted and inserted instead of being patched under the wrong identity.
struct ChangesetBuilder {
    /// Row updates that refer to one section before the batch.
    private struct OldSectionRows {
        var deleted = Set<Int>()
        var reloaded = Set<Int>()
        var movedOut: [Int: TableIndexPath] = [:]
    }

    /// Row updates that refer to one section after the batch.
    private struct NewSectionRows {
        var inserted = Set<Int>()
        var movedIn: [Int: TableIndexPath] = [:]
    }

    let old: TableSnapshot
    let new: TableSnapshot
    let updates: BatchUpdates

    // Section mapping, filled by `mapSections`.
    private var sectionTarget: [Int: Int] = [:]
    private var sectionSource: [Int: Int] = [:]
    private var deletedSections = Set<Int>()
    private var insertedSections = Set<Int>()
    private var reloadedSections = Set<Int>()
    private var movedSectionDestinations = Set<Int>()
    // Row mapping, filled by `mapRows`.
    private var oldRows: [OldSectionRows] = []
    private var newRows: [NewSectionRows] = []
    // Where each old row ends up and where each new row comes from, by section then row: arrays
    // rather than dictionaries, as every row of a large table is mapped.
    private var rowTarget: [[TableIndexPath?]] = []
    private var rowSource: [[TableIndexPath?]] = []

    init(old: TableSnapshot, new: TableSnapshot, updates: BatchUpdates) {
        self.old = old
        self.new = new
        self.updates = updates
    }

    /// Validates the batch and builds the changeset.
    /// - Parameters:
    ///   - records: the rows' content at the last commit; on return, the content to keep for the
    ///     next batch. Updated in place so that a large table's records are not copied; left
    ///     untouched when the batch is rejected.
    ///   - record: reads a row's current content at an index path after the batch.
    /// - Throws: ``TableError/inconsistentBatch(_:)``.
    func build(records: inout [RowID: RowRecord], record: (TableIndexPath) -> RowRecord) throws -> Changeset {
        var builder = self
        try builder.mapSections()
        try builder.mapRows()
        return builder.operations(records: &records, record: record)
    }

    // MARK: Validation and mapping

    private mutating func mapSections() throws {
        let oldCount = old.sections.count
        let newCount = new.sections.count
        var claimedOld: [Int: String] = [:]
        var claimedNew: [Int: String] = [:]
        func claim(_ index: Int, _ use: String, in claims: inout [Int: String], count: Int, when: String) throws {
            guard (0..<count).contains(index) else {
                throw TableError.inconsistentBatch("cannot \(use) section \(index): there are \(count) sections \(when) the update.")
            }
            if let earlier = claims[index], earlier != use {
                throw TableError.inconsistentBatch("section \(index) is asked to \(earlier) and to \(use) in one batch.")
            }
            claims[index] = use
        }
        for section in updates.deletedSections {
            try claim(section, "delete", in: &claimedOld, count: oldCount, when: "before")
        }
        for section in updates.reloadedSections {
            try claim(section, "reload", in: &claimedOld, count: oldCount, when: "before")
        }
        for section in updates.insertedSections {
            try claim(section, "insert", in: &claimedNew, count: newCount, when: "after")
        }
        for move in updates.movedSections {
            try claim(move.from, "move from", in: &claimedOld, count: oldCount, when: "before")
            try claim(move.to, "move to", in: &claimedNew, count: newCount, when: "after")
            if sectionTarget[move.from] != nil || sectionSource[move.to] != nil {
                throw TableError.inconsistentBatch("section \(move.from) or \(move.to) is moved twice in one batch.")
            }
            sectionTarget[move.from] = move.to
            sectionSource[move.to] = move.from
            movedSectionDestinations.insert(move.to)
        }
        deletedSections = Set(updates.deletedSections)
        reloadedSections = Set(updates.reloadedSections)
        insertedSections = Set(updates.insertedSections)

        let expected = oldCount - deletedSections.count + insertedSections.count
        guard expected == newCount else {
            throw TableError.inconsistentBatch(
                "the table has \(newCount) sections after the update but \(oldCount) before, "
                    + "with \(insertedSections.count) inserted and \(deletedSections.count) deleted."
            )
        }
        let staying = (0..<oldCount).filter { !deletedSections.contains($0) && sectionTarget[$0] == nil }
        let slots = (0..<newCount).filter { !insertedSections.contains($0) && sectionSource[$0] == nil }
        for (from, to) in zip(staying, slots) {
            sectionTarget[from] = to
            sectionSource[to] = from
        }
    }

    private mutating func mapRows() throws {
        oldRows = Array(repeating: OldSectionRows(), count: old.sections.count)
        newRows = Array(repeating: NewSectionRows(), count: new.sections.count)
        rowTarget = old.sections.map { Array(repeating: nil, count: $0.rows.count) }
        rowSource = new.sections.map { Array(repeating: nil, count: $0.rows.count) }
        func checkOld(_ path: TableIndexPath, _ use: String) throws {
            guard old.rowID(at: path) != nil else {
                throw TableError.inconsistentBatch("cannot \(use) row \(path): it does not exist before the update.")
            }
            let rows = oldRows[path.section]
            if rows.deleted.contains(path.row) || rows.reloaded.contains(path.row) || rows.movedOut[path.row] != nil {
                throw TableError.inconsistentBatch("row \(path) is asked to \(use) and to change otherwise in one batch.")
            }
        }
        func checkNew(_ path: TableIndexPath, _ use: String) throws {
            guard new.rowID(at: path) != nil else {
                throw TableError.inconsistentBatch("cannot \(use) row \(path): it does not exist after the update.")
            }
            let rows = newRows[path.section]
            if rows.inserted.contains(path.row) || rows.movedIn[path.row] != nil {
                throw TableError.inconsistentBatch("row \(path) is the destination of two changes in one batch.")
            }
        }
        for path in Set(updates.deletedRows) {
            try checkOld(path, "delete")
            oldRows[path.section].deleted.insert(path.row)
        }
        for path in Set(updates.reloadedRows) {
            try checkOld(path, "reload")
            oldRows[path.section].reloaded.insert(path.row)
        }
        for path in Set(updates.insertedRows) {
            try checkNew(path, "insert")
            newRows[path.section].inserted.insert(path.row)
        }
        for move in updates.movedRows {
            try checkOld(move.from, "move")
            try checkNew(move.to, "move")
            oldRows[move.from.section].movedOut[move.from.row] = move.to
            newRows[move.to.section].movedIn[move.to.row] = move.from
            rowTarget[move.from.section][move.from.row] = move.to
            rowSource[move.to.section][move.to.row] = move.from
        }
        for id in updates.reconfiguredRows where old.rowPaths[id] == nil || new.rowPaths[id] == nil {
            throw TableError.inconsistentBatch("cannot reconfigure row \(id): it does not exist both before and after the update.")
        }
        // Rows of deleted, inserted and reloaded sections come and go with their section, so
        // only sections that carry over are counted, as UIKit does.
        for (newSection, oldSection) in sectionSource.sorted(by: { $0.key < $1.key })
        where !reloadedSections.contains(oldSection) {
            let before = old.rowCount(inSection: oldSection)
            let after = new.rowCount(inSection: newSection)
            let removed = oldRows[oldSection]
            let added = newRows[newSection]
            let expected = before - removed.deleted.count - removed.movedOut.count + added.inserted.count + added.movedIn.count
            guard expected == after else {
                throw TableError.inconsistentBatch(
                    "section \(newSection) has \(after) rows after the update but \(before) before, with "
                        + "\(added.inserted.count) inserted, \(removed.deleted.count) deleted, "
                        + "\(added.movedIn.count) moved in and \(removed.movedOut.count) moved out."
                )
            }
            let staying = (0..<before).filter { !removed.deleted.contains($0) && removed.movedOut[$0] == nil }
            let slots = (0..<after).filter { !added.inserted.contains($0) && added.movedIn[$0] == nil }
            for (from, to) in zip(staying, slots) {
                rowTarget[oldSection][from] = TableIndexPath(section: newSection, row: to)
                rowSource[newSection][to] = TableIndexPath(section: oldSection, row: from)
            }
        }
    }

    // MARK: Classification

    private func sectionIdentityChanged(old oldSection: Int) -> Bool {
        guard let newSection = sectionTarget[oldSection] else { return false }
        return old.sections[oldSection].id != new.sections[newSection].id
    }

    /// The old section's element leaves the document before anything is inserted.
    private func isRemoved(old oldSection: Int) -> Bool {
        deletedSections.contains(oldSection) || sectionIdentityChanged(old: oldSection)
    }

    /// The new section is sent whole (inserted or replaced), rows included.
    private func isRenderedWhole(new newSection: Int) -> Bool {
        guard let oldSection = sectionSource[newSection] else { return true }
        return reloadedSections.contains(oldSection) || sectionIdentityChanged(old: oldSection)
    }

    /// The new section is sent as an insertion.
    private func isInserted(new newSection: Int) -> Bool {
        guard let oldSection = sectionSource[newSection] else { return true }
        return sectionIdentityChanged(old: oldSection)
    }

    private func rowIdentityChanged(from source: TableIndexPath, to destination: TableIndexPath) -> Bool {
        old.rowID(at: source) != new.rowID(at: destination)
    }

    // MARK: Operations

    private func operations(records: inout [RowID: RowRecord], record: (TableIndexPath) -> RowRecord) -> Changeset {
        var operations: [Changeset.Operation] = []
        var freshRows = Set<TableIndexPath>()
        // Asked once per section rather than once per row.
        let removed = old.sections.indices.map { isRemoved(old: $0) }
        let whole = new.sections.indices.map { isRenderedWhole(new: $0) }

        // 1. Removals, so that every later placement refers to elements that stay.
        for section in old.sections.indices where removed[section] {
            operations.append(.deleteSection(old.sections[section].id))
        }
        for section in old.sections.indices where !removed[section] {
            for (row, destination) in rowTarget[section].enumerated() {
                guard let destination else { continue }
                let moved = oldRows[section].movedOut[row] != nil
                if (moved && whole[destination.section])
                    || (!whole[destination.section]
                        && rowIdentityChanged(from: TableIndexPath(section: section, row: row), to: destination)) {
                    operations.append(.deleteRow(old.sections[section].rows[row]))
                }
            }
        }
        for section in old.sections.indices where !removed[section] {
            guard let target = sectionTarget[section], !whole[target] else { continue }
            for row in oldRows[section].deleted.sorted() {
                operations.append(.deleteRow(old.sections[section].rows[row]))
            }
        }
        // Collected by kind above; sent top to bottom so the changeset reads like the page.
        operations.sort { removalPosition($0) < removalPosition($1) }

        // 2. Sections in their final order, each after the previous one.
        for section in new.sections.indices {
            let placement: SectionPlacement = section == 0 ? .start : .after(new.sections[section - 1].id)
            if isInserted(new: section) {
                operations.append(.insertSection(new.sections[section].id, placement: placement))
            } else if movedSectionDestinations.contains(section) && !whole[section] {
                operations.append(.moveSection(new.sections[section].id, placement: placement))
            }
        }

        // 3. Rows in their final order inside sections that are not sent whole.
        for section in new.sections.indices where !whole[section] {
            let rows = new.sections[section].rows
            let sectionID = new.sections[section].id
            for row in rows.indices {
                let path = TableIndexPath(section: section, row: row)
                let placement: RowPlacement = row == 0 ? .start : .after(rows[row - 1])
                if let source = rowSource[section][row] {
                    let moved = newRows[section].movedIn[row] != nil
                    if removed[source.section] || rowIdentityChanged(from: source, to: path) {
                        operations.append(.insertRow(rows[row], section: sectionID, placement: placement))
                        freshRows.insert(path)
                    } else if moved {
                        operations.append(.moveRow(rows[row], section: sectionID, placement: placement))
                    }
                } else {
                    operations.append(.insertRow(rows[row], section: sectionID, placement: placement))
                    freshRows.insert(path)
                }
            }
        }

        // 4. Reloaded and reconfigured rows, only when their content really changed, top to
        // bottom as they end up. Rows sent afresh or inside a section sent whole are skipped.
        var candidates = Set(updates.reconfiguredRows.compactMap { new.rowPaths[$0] })
        for section in old.sections.indices where !removed[section] {
            for row in oldRows[section].reloaded {
                if let destination = rowTarget[section][row] {
                    candidates.insert(destination)
                }
            }
        }
        // Each candidate is a different row, so `records` still holds its previous content here.
        for destination in candidates.sorted()
        where !whole[destination.section] && !freshRows.contains(destination) {
            let current = record(destination)
            if records[current.id] != current {
                operations.append(.replaceRow(current.id))
            }
            records[current.id] = current
        }

        // 5. Reloaded sections that kept their identity.
        for section in new.sections.indices where whole[section] && !isInserted(new: section) {
            operations.append(.replaceSection(new.sections[section].id))
        }

        refresh(&records, freshRows: freshRows, wholeSections: whole, record: record)
        return Changeset(operations)
    }

    private func removalPosition(_ operation: Changeset.Operation) -> (Int, Int, Int) {
        switch operation {
        case .deleteSection(let id):
            return (0, old.sectionIndexes[id] ?? 0, 0)
        case .deleteRow(let id):
            let path = old.rowPaths[id] ?? TableIndexPath(section: 0, row: 0)
            return (1, path.section, path.row)
        default:
            return (2, 0, 0)
        }
    }

    /// Re-reads rows the client receives afresh and drops rows that are gone.
    private func refresh(
        _ records: inout [RowID: RowRecord], freshRows: Set<TableIndexPath>, wholeSections: [Bool], record: (TableIndexPath) -> RowRecord
    ) {
        for (sectionIndex, section) in new.sections.enumerated() where wholeSections[sectionIndex] {
            for (rowIndex, id) in section.rows.enumerated() {
                records[id] = record(TableIndexPath(section: sectionIndex, row: rowIndex))
            }
        }
        for path in freshRows {
            records[new.sections[path.section].rows[path.row]] = record(path)
        }
        // Every record kept belongs to an old row or was just read, so counts tell whether rows
        // are gone or, after a batch that misreported identities, missing; only then is every
        // row visited. Removing gone rows one by one keeps the dictionary's storage, where
        // filtering would copy every record.
        if records.count > new.rowPaths.count {
            for section in old.sections {
                for id in section.rows where new.rowPaths[id] == nil {
                    records.removeValue(forKey: id)
                }
            }
        }
        if records.count < new.rowPaths.count {
            for (sectionIndex, section) in new.sections.enumerated() {
                for (rowIndex, id) in section.rows.enumerated() where records.index(forKey: id) == nil {
                    records[id] = record(TableIndexPath(section: sectionIndex, row: rowIndex))
                }
            }
        }
    }
}
