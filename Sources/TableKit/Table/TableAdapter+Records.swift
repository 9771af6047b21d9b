extension TableAdapter {
    /// Reads everything a row shows from the delegate tree, now.
    ///
    ///     let record = table.rowRecord(at: TableIndexPath(section: 0, row: 0))
    public func rowRecord(at indexPath: TableIndexPath) -> RowRecord {
        // One read of the stored property instead of one per call keeps retains and dynamic
        // exclusivity checks out of the per-row path.
        let root = self.root
        let canEdit = root.canEditRow(at: indexPath)
        let editingStyle = canEdit ? root.editingStyleForRow(at: indexPath) : .none
        let height = root.heightForRow(at: indexPath)
        // Cascading delegates fall back from the estimate to the height; an estimate that is
        // the height itself, or automatic, tells a client nothing, so it is not kept.
        var estimatedHeight = root.estimatedHeightForRow(at: indexPath)
        if estimatedHeight == height || estimatedHeight == .automatic {
            estimatedHeight = nil
        }
        let id = root.rowID(forRowAt: indexPath)
        var link = root.linkForRow(at: indexPath)
        if let location = link, !SitePath.isOnThisSite(location) {
            onIgnoredAnswer?(.linkOffSite(location: location, row: id))
            link = nil
        }
        // UIKit shows an insert control only on an editable row too; here that refusal is said,
        // and asked only of a table that has someone to say it to.
        if !canEdit, let onIgnoredAnswer, root.editingStyleForRow(at: indexPath) == .insert {
            onIgnoredAnswer(.insertWithoutEditing(row: id))
        }
        return RowRecord(
            id: id,
            cell: root.cell(forRowAt: indexPath),
            height: height,
            estimatedHeight: estimatedHeight,
            indentationLevel: root.indentationLevelForRow(at: indexPath),
            isSelectable: root.shouldHighlightRow(at: indexPath),
            editingStyle: editingStyle,
            deleteConfirmationTitle: editingStyle == .delete ? root.titleForDeleteConfirmationButtonForRow(at: indexPath) : nil,
            canMove: root.canMoveRow(at: indexPath),
            actions: root.actionsForRow(at: indexPath),
            link: link
        )
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
            footerTitleWithControls: root.titleForFooterWithControls(inSection: section),
            headerView: root.viewForHeader(inSection: section),
            footerView: root.viewForFooter(inSection: section),
            headerHeight: root.heightForHeader(inSection: section),
            footerHeight: root.heightForFooter(inSection: section),
            insertFields: root.fieldsForInserting(inSection: section)
        )
    }

    /// What a section shows around its rows, compared between commits to find sections to send
    /// again. The index and row count are left out: they change with every insert, delete and
    /// move around the section, which the row and section operations already describe.
    func sectionContent(at section: Int) -> SectionRecord {
        var record = sectionRecord(at: section)
        record.index = 0
        record.rowCount = 0
        return record
    }
}
