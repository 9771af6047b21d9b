// Diff-based reloads: the data changed elsewhere and nobody reported how, so the table finds
// the changes itself by identifier and content (UITableViewDiffableDataSource's `apply`,
// IGListKit's `performUpdates`).
extension TableAdapter {
    /// Re-reads the whole table and sends subscribers only what changed since the last commit,
    /// found by comparing identifiers and content: inserted, deleted and moved rows and sections,
    /// and replacements for the ones whose content changed. Nothing changed, nothing is sent.
    ///
    ///     list.models = try store.fetchTodos()
    ///     table.reconcileData()
    ///
    /// Use it when the data behind the delegates changed and nobody reported how (another process
    /// edited the database); when the change is known, batch updates say it for less work.
    /// Inside a batch the diff is taken when the outermost batch commits and replaces the batch's
    /// other updates, which it covers; ``reloadData()`` in the same batch wins. When an identifier
    /// appears twice, changes cannot be matched and subscribers are sent ``Changeset/reset``.
    public func reconcileData() {
        record { $0.reconcilesAll = true }
    }

    /// Diffs the delegate tree against the committed state and commits the difference as one
    /// changeset, built by the same ``ChangesetBuilder`` as any batch.
    func commitDifferences() {
        let current = TableSnapshot(capturing: root)
        snapshot.indexRows()
        let diff = TableDiff(old: snapshot, new: current)
        // Every row is read once here; the builder then reads the records of rows it sends from
        // this capture instead of asking the delegates again.
        let currentRecords = captureRecords(of: current)
        let previousRecords = records
        let updates = diff.updates(
            isSectionChanged: { id in
                current.sectionIndexes[id].map(sectionContent(at:)) != sectionRecords[id]
            },
            isRowChanged: { id in
                // Compared in place: copying two records out of the dictionaries would cost
                // more than the comparison, for every row.
                guard let old = previousRecords.index(forKey: id), let new = currentRecords.index(forKey: id) else {
                    return true
                }
                return previousRecords.values[old] != currentRecords.values[new]
            }
        )
        guard let updates else {
            reloadEverything()
            return
        }
        // Nothing the rows show changed; what the frame shows (a count past a window) may have.
        guard !updates.isEmpty else {
            publish(Changeset(frameOperations(after: Changeset())))
            return
        }
        // The diff adds up by construction; should the builder still reject it, the commit has
        // already sent subscribers a reset, which is all a caller could do about it.
        try? commit(updates, to: current) { path in
            currentRecords[current.sections[path.section].rows[path.row]] ?? rowRecord(at: path)
        }
    }
}
