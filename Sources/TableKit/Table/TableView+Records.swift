extension TableView {
    /// Reads everything a row shows from the delegate tree, now.
    ///
    ///     let record = table.rowRecord(at: IndexPath(section: 0, row: 0))
    public func rowRecord(at indexPath: IndexPath) -> RowRecord {
        // One read of the stored property instead of one per call keeps retains and dynamic
        // exclusivity checks out of the per-row path.
        let root = self.root
        let editingStyle = root.canEditRow(at: indexPath) ? root.editingStyleForRow(at: indexPath) : .none
        let height = root.heightForRow(at: indexPath)
        // Cascading delegates fall back from the estimate to the height; an estimate that is
        // the height itself, or automatic, tells a client nothing, so it is not kept.
        var estimatedHeight = root.estimatedHeightForRow(at: indexPath)
        if estimatedHeight == height || estimatedHeight == .automatic {
            estimatedHeight = nil
        }
        // Filling a record in place, rather than passing every value to the memberwise
        // initializer, lets the optimizer build it in the return slot instead of copying it there.
        var record = RowRecord(id: root.rowID(forRowAt: indexPath), cell: root.cell(forRowAt: indexPath))
        record.height = height
        record.estimatedHeight = estimatedHeight
        record.indentationLevel = root.indentationLevelForRow(at: indexPath)
        record.isSelectable = root.shouldHighlightRow(at: indexPath)
        record.editingStyle = editingStyle
        if editingStyle == .delete {
            record.deleteConfirmationTitle = root.titleForDeleteConfirmationButtonForRow(at: indexPath)
        }
        record.canMove = root.canMoveRow(at: indexPath)
        record.actions = root.actionsForRow(at: indexPath)
        return record
    }

    /// Reads everything a section shows around its rows from the delegate tree, now.
    public func sectionRecord(at section: Int) -> SectionRecord {
        let root = self.root
        return SectionRecord(
            id: root.sectionID(forSection: section),
            index: section,
            rowCount: max(0, root.numberOfRows(inSection: section)),
            headerTitle: root.titleForHeader(inSection: section),
            footerTitle: root.titleForFooter(inSection: section),
            headerView: root.viewForHeader(inSection: section),
            footerView: root.viewForFooter(inSection: section),
            headerHeight: root.heightForHeader(inSection: section),
            footerHeight: root.heightForFooter(inSection: section)
        )
    }
}
