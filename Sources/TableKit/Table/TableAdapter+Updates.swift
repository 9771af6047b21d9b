extension TableAdapter: TableContext {
    /// Opens (or nests) a batch; nothing is sent until the outermost `endUpdates()`.
    public func beginUpdates() {
        batchDepth += 1
    }

    /// Closes a batch. The outermost call validates it, commits it, bumps ``version`` and calls
    /// ``onChange`` when something changed.
    /// - Throws: ``TableError/inconsistentBatch(_:)`` when counts do not add up (the table is
    ///   then re-read and ``Changeset/reset`` sent), ``TableError/unbalancedEndUpdates``.
    public func endUpdates() throws {
        guard batchDepth > 0 else { throw TableError.unbalancedEndUpdates }
        batchDepth -= 1
        guard batchDepth == 0 else { return }
        let updates = pendingUpdates
        pendingUpdates = BatchUpdates()
        try commit(updates)
    }

    /// Runs `updates` inside one batch and commits it.
    ///
    ///     try table.performBatchUpdates {
    ///         try store.delete(rows[3].id)
    ///         rows.remove(at: 3)
    ///         table.deleteRows(at: [TableIndexPath(section: 0, row: 3)])
    ///     }
    ///
    /// When `updates` throws, the batch is discarded: the updates it reported are forgotten,
    /// batches it opened are closed, nothing is published, ``version`` stays, and the error is
    /// rethrown. Throw before changing the data; should the delegate tree nonetheless no longer
    /// match the committed state, subscribers are sent ``Changeset/reset``, so that no page keeps
    /// showing what the data no longer holds.
    public func performBatchUpdates(_ updates: () throws -> Void) throws {
        let depth = batchDepth
        let collected = pendingUpdates
        beginUpdates()
        do {
            try updates()
        } catch {
            batchDepth = depth
            pendingUpdates = collected
            if depth == 0 {
                // Publishes only when the tree differs from what subscribers were sent.
                reloadEverything()
            }
            throw error
        }
        try endUpdates()
    }

    /// Re-reads the whole table; subscribers receive ``Changeset/reset`` when anything changed.
    /// Inside a batch the reload happens when the batch commits.
    public func reloadData() {
        record { $0.reloadsAll = true }
    }

    /// Inserts rows at index paths after the batch.
    public func insertRows(at indexPaths: [TableIndexPath]) {
        record { $0.insertedRows += indexPaths }
    }

    /// Deletes rows at index paths before the batch.
    public func deleteRows(at indexPaths: [TableIndexPath]) {
        record { $0.deletedRows += indexPaths }
    }

    /// Re-reads rows at index paths before the batch; rows whose content is unchanged produce nothing.
    public func reloadRows(at indexPaths: [TableIndexPath]) {
        record { $0.reloadedRows += indexPaths }
    }

    /// Moves a row from an index path before the batch to one after it.
    public func moveRow(at source: TableIndexPath, to destination: TableIndexPath) {
        record { $0.movedRows.append((source, destination)) }
    }

    /// Inserts sections at indexes after the batch.
    public func insertSections(_ sections: [Int]) {
        record { $0.insertedSections += sections }
    }

    /// Deletes sections at indexes before the batch.
    public func deleteSections(_ sections: [Int]) {
        record { $0.deletedSections += sections }
    }

    /// Re-reads sections at indexes before the batch.
    public func reloadSections(_ sections: [Int]) {
        record { $0.reloadedSections += sections }
    }

    /// Moves a section from an index before the batch to one after it.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        record { $0.movedSections.append((section, newSection)) }
    }

    /// Remembers a path on this site in ``shownLocation`` while a selection is handled; anything
    /// else is reported to ``onIgnoredAnswer`` and ignored.
    public func show(_ location: String) {
        guard isSelecting else {
            onIgnoredAnswer?(.showOutsideSelection(location: location))
            return
        }
        guard SitePath.isOnThisSite(location) else {
            onIgnoredAnswer?(.showOffSite(location: location))
            return
        }
        shownLocation = location
    }

    /// Adds to the open batch, or commits at once outside a batch, as UIKit does.
    func record(_ change: (inout BatchUpdates) -> Void) {
        change(&pendingUpdates)
        guard batchDepth == 0 else { return }
        let updates = pendingUpdates
        pendingUpdates = BatchUpdates()
        // A lone update has no caller to throw to; the reset sent to subscribers is the recovery.
        try? commit(updates)
    }

    private func commit(_ updates: BatchUpdates) throws {
        guard !updates.isEmpty else { return }
        if updates.reloadsAll {
            reloadEverything()
            return
        }
        if updates.reconcilesAll {
            commitDifferences()
            return
        }
        try commit(updates, to: TableSnapshot(capturing: root), record: rowRecord(at:))
    }

    /// Builds the changeset of `updates` from the committed state to `current` and commits it.
    /// - Parameter record: reads a row's content at an index path in `current`.
    func commit(_ updates: BatchUpdates, to current: TableSnapshot, record: (TableIndexPath) -> RowRecord) throws {
        // Handing the builder the only reference to the records lets it update them in place;
        // a copy of every record per commit costs more than the rest of a large diff.
        var updatedRecords: [RowID: RowRecord] = [:]
        swap(&updatedRecords, &records)
        snapshot.indexRows()
        do {
            var changeset = try ChangesetBuilder(old: snapshot, new: current, updates: updates)
                .build(records: &updatedRecords, record: record)
            snapshot = current
            records = updatedRecords
            refreshSectionRecords(after: changeset)
            changeset.operations += frameOperations(after: changeset)
            publish(changeset)
        } catch {
            records = updatedRecords
            reloadEverything(force: true)
            throw error
        }
    }

    /// Re-reads everything and sends a reset when anything changed (or always, when forced).
    func reloadEverything(force: Bool = false) {
        let (current, currentRecords, currentSectionRecords) = captureEverything()
        let currentFrame = TableFrame(capturing: root)
        let changed = force || current != snapshot || currentRecords != records || currentSectionRecords != sectionRecords
            || currentFrame != frame
        snapshot = current
        records = currentRecords
        sectionRecords = currentSectionRecords
        frame = currentFrame
        if changed {
            publish(.reset)
        }
    }

    /// Keeps the content of sections the client has just received whole and forgets sections
    /// that are gone. Others keep what was last sent, so that a later diff still sees a change
    /// no batch reported, as row records do.
    private func refreshSectionRecords(after changeset: Changeset) {
        for operation in changeset.operations {
            switch operation {
            case .insertSection(let id, _), .replaceSection(let id):
                if let index = snapshot.sectionIndexes[id] {
                    sectionRecords[id] = sectionContent(at: index)
                }
            default:
                continue
            }
        }
        if sectionRecords.count > snapshot.sectionIndexes.count {
            sectionRecords = sectionRecords.filter { snapshot.sectionIndexes[$0.key] != nil }
        }
    }

    /// The header and section-count operations that follow `changeset`, committed to the current
    /// snapshot, and the frame they bring clients to.
    func frameOperations(after changeset: Changeset) -> [Changeset.Operation] {
        let current = TableFrame(capturing: root)
        guard current != frame else { return [] }
        var sentWhole = Set<SectionID>()
        for operation in changeset.operations {
            if case .insertSection(let id, _) = operation { sentWhole.insert(id) }
            if case .replaceSection(let id) = operation { sentWhole.insert(id) }
        }
        defer { frame = current }
        return frame.operations(to: current, sections: snapshot.sections.map(\.id), sentWhole: sentWhole)
    }

    func publish(_ changeset: Changeset) {
        guard !changeset.isEmpty else { return }
        version = nextVersion?(version) ?? version + 1
        onChange?(changeset)
    }
}
