extension TableAdapter {
    /// Applies every change queued on ``updater``, oldest first, in one batch: changes that
    /// arrived together reach subscribers as one changeset. Call it inside the table's isolation.
    ///
    ///     table.updater.whenChangesQueued { Task { @MainActor in table.applyQueuedChanges() } }
    ///
    /// - Returns: the errors queued changes threw; a change that threw
    ///   published nothing, the others are applied regardless.
    @discardableResult
    public func applyQueuedChanges() -> [any Error] {
        let changes = updater.takeQueue()
        guard !changes.isEmpty else { return [] }
        var errors: [any Error] = []
        do {
            try performBatchUpdates {
                for change in changes {
                    // Each change is a nested batch, so one that throws discards only its own updates.
                    do {
                        try performBatchUpdates { try change(self) }
                    } catch {
                        errors.append(error)
                    }
                }
            }
        } catch {
            // The batch did not add up; the table has sent subscribers a reset.
            errors.append(error)
        }
        return errors
    }

    /// Runs `change` on the delegate of type `T` on the path to row `id`, bracketed as a cell
    /// update so that the row is reloaded.
    func updateRow<T>(_ id: RowID, of type: T.Type, _ change: (T) -> Void) {
        guard let indexPath = indexPath(forRowID: id), let delegate: T = delegate(ofType: type, forRowAt: indexPath) else { return }
        if let signal = delegate as? any CellUpdateDelegate {
            signal.cellWillBeginUpdate(id)
            change(delegate)
            signal.cellDidEndUpdate(id)
        } else {
            beginUpdates()
            change(delegate)
            reloadRows(at: [indexPath])
            try? endUpdates()
        }
    }

    /// The delegate nearest the row on the path from the root to the row at `indexPath` that is a `T`.
    private func delegate<T>(ofType type: T.Type, forRowAt indexPath: TableIndexPath) -> T? {
        var found = root as? T
        var node: Any = root
        while let next = Self.child(of: node, routingRowAt: indexPath) {
            if let match = next as? T { found = match }
            node = next
        }
        return found
    }

    /// The child of `node` a row call for `indexPath` is routed to, or nil when `node` routes
    /// nothing further (a row delegate, a root that is not cascading).
    private static func child(of node: Any, routingRowAt indexPath: TableIndexPath) -> (any CascadingTableDelegate)? {
        (node as? any CascadingTableDelegate)?.childDelegate(forRowAt: indexPath)
    }
}
