// People's actions, addressed by identifier and carried out through the delegate chain.
// Each runs inside a batch so that the updates a delegate reports become one changeset, and a
// delegate that throws leaves the table as it was: no changeset, no new version.
extension TableAdapter {
    /// Selects a row as a tap would: `shouldHighlightRow` → `willSelectRow` (nil vetoes, another
    /// path redirects) → `didSelectRow`.
    ///
    ///     switch try table.selectRow("todo-17") { case .selected(let path): …; case .vetoed, .unknownRow: … }
    ///
    /// Updates reported by `didSelectRow` are committed as one batch. A place the delegate asked
    /// to ``TableContext/show(_:)`` is then in ``shownLocation``.
    /// - Throws: what `didSelectRow` threw (nothing is then published and ``shownLocation`` is
    ///   nil), or ``TableError/inconsistentBatch(_:)``.
    public func selectRow(_ id: RowID) throws -> SelectionOutcome {
        shownLocation = nil
        guard let indexPath = indexPath(forRowID: id) else { return .unknownRow }
        guard root.shouldHighlightRow(at: indexPath),
              let target = root.willSelectRow(at: indexPath),
              rowID(at: target) != nil else { return .vetoed }
        do {
            isSelecting = true
            defer { isSelecting = false }
            try performBatchUpdates { try root.didSelectRow(at: target) }
        } catch {
            // A selection that did not happen leads nowhere.
            shownLocation = nil
            throw error
        }
        return .selected(target)
    }

    /// Deselects a row: `willDeselectRow` (nil vetoes, another path redirects) → `didDeselectRow`.
    /// `.selected(path)` names the row that was deselected.
    /// - Throws: what `didDeselectRow` threw (nothing is then published), or
    ///   ``TableError/inconsistentBatch(_:)``.
    @discardableResult
    public func deselectRow(_ id: RowID) throws -> SelectionOutcome {
        guard let indexPath = indexPath(forRowID: id) else { return .unknownRow }
        guard let target = root.willDeselectRow(at: indexPath), rowID(at: target) != nil else { return .vetoed }
        try performBatchUpdates { try root.didDeselectRow(at: target) }
        return .selected(target)
    }

    /// Performs one of the row's named actions (`actionsForRow`) through
    /// `performAction(named:forRowAt:values:)`, with the fields submitted with it.
    ///
    ///     try table.performAction(named: "rename", onRow: "todo-17", values: ["title": "Buy oat milk"])
    /// When the action declares ``RowAction/fields``, the values are checked against them first
    /// and the delegate receives the checked values.
    /// - Throws: ``TableError/unknownRow(_:)``, ``TableError/noSuchAction(_:row:)``, a
    ///   ``FormFieldProblem``, what the
    ///   delegate threw (nothing is then published), or an inconsistency in the updates the
    ///   action reported.
    public func performAction(named name: String, onRow id: RowID, values: [String: String] = [:]) throws {
        let indexPath = try existingIndexPath(forRowID: id)
        guard let action = root.actionsForRow(at: indexPath).first(where: { $0.name == name }) else {
            throw TableError.noSuchAction(name, row: id)
        }
        if action.fields.isEmpty, let field = action.field {
            try field.formField.checkLength(values[field.name] ?? "")
        }
        let values = action.fields.isEmpty ? values : try FormField.checkedValues(values, against: action.fields)
        try performBatchUpdates { try root.performAction(named: name, forRowAt: indexPath, values: values) }
    }

    /// Deletes a row that offers deletion (`canEditRow` and editing style `.delete`) by calling
    /// `commit(.delete, forRowAt:values:)`; the delegate reports the deletion through its context.
    ///
    ///     try table.deleteRow("todo-17")
    /// - Throws: ``TableError/unknownRow(_:)``, ``TableError/notEditable(_:)``, what the delegate
    ///   threw (nothing is then published), or an inconsistency.
    public func deleteRow(_ id: RowID) throws {
        let indexPath = try existingIndexPath(forRowID: id)
        guard root.canEditRow(at: indexPath), root.editingStyleForRow(at: indexPath) == .delete else {
            throw TableError.notEditable(id)
        }
        try performBatchUpdates { try root.commit(.delete, forRowAt: indexPath, values: [:]) }
    }

    /// Moves a row next to a neighbour: `canMoveRow` → `targetIndexPathForMove` (may adjust the
    /// destination) → `moveRow(from:to:)`; the table records the move itself, as UIKit does.
    ///
    ///     try table.moveRow("todo-3", toSection: "done", placement: .after("todo-9"))
    /// - Throws: ``TableError/unknownRow(_:)`` (the row or the neighbour),
    ///   ``TableError/unknownSection(_:)``, ``TableError/notMovable(_:)``, ``TableError/vetoed(_:)``
    ///   when the delegate redirects outside the table, or what `moveRow(from:to:)` threw (no
    ///   move is then recorded or published).
    public func moveRow(_ id: RowID, toSection sectionID: SectionID, placement: RowPlacement) throws {
        let source = try existingIndexPath(forRowID: id)
        guard let section = sectionIndex(forSectionID: sectionID) else { throw TableError.unknownSection(sectionID) }
        guard root.canMoveRow(at: source) else { throw TableError.notMovable(id) }
        // Destinations count rows as they will be once the moved row has left its place.
        var rows = snapshot.sections[section].rows
        if section == source.section {
            rows.remove(at: source.row)
        }
        let row: Int
        switch placement {
        case .start:
            row = 0
        case .end:
            row = rows.count
        case .after(let neighbour), .before(let neighbour):
            guard let position = rows.firstIndex(of: neighbour) else { throw TableError.unknownRow(neighbour) }
            if case .after = placement { row = position + 1 } else { row = position }
        }
        let proposed = TableIndexPath(section: section, row: row)
        let destination = root.targetIndexPathForMove(from: source, toProposed: proposed)
        let limit = numberOfRows(inSection: destination.section) - (destination.section == source.section ? 1 : 0)
        guard snapshot.sections.indices.contains(destination.section), (0...limit).contains(destination.row) else {
            throw TableError.vetoed(id)
        }
        guard destination != source else { return }
        try performBatchUpdates {
            try root.moveRow(from: source, to: destination)
            // Recorded only once the delegate has moved the row in its data.
            moveRow(at: source, to: destination)
        }
    }

    /// Asks the delegate to insert a row at the end of a section with submitted values, through
    /// `commit(.insert, forRowAt:values:)` at the index path one past the section's last row; the
    /// delegate reports the insertion through its context. When the section declares
    /// ``TableDataSource/fieldsForInserting(inSection:)``, the values are checked against them
    /// first and the delegate receives the checked values.
    ///
    ///     try table.insertRow(inSection: "open", values: ["title": "Buy milk"])
    /// - Throws: ``TableError/unknownSection(_:)``, a ``FormFieldProblem`` (nothing is then
    ///   asked of the delegate), what the delegate threw (nothing is then published), or an
    ///   inconsistency.
    public func insertRow(inSection sectionID: SectionID, values: [String: String]) throws {
        guard let section = sectionIndex(forSectionID: sectionID) else { throw TableError.unknownSection(sectionID) }
        let fields = root.fieldsForInserting(inSection: section)
        let values = fields.isEmpty ? values : try FormField.checkedValues(values, against: fields)
        let indexPath = TableIndexPath(section: section, row: numberOfRows(inSection: section))
        try performBatchUpdates { try root.commit(.insert, forRowAt: indexPath, values: values) }
    }

    /// Tells the delegate that these rows will probably be requested soon; unknown ids are ignored.
    public func prefetchRows(_ ids: [RowID]) {
        let indexPaths = ids.compactMap(indexPath(forRowID:))
        guard !indexPaths.isEmpty else { return }
        root.prefetchRows(at: indexPaths)
    }

    /// Tells the delegate that these rows are no longer expected soon; unknown ids are ignored.
    public func cancelPrefetchingRows(_ ids: [RowID]) {
        let indexPaths = ids.compactMap(indexPath(forRowID:))
        guard !indexPaths.isEmpty else { return }
        root.cancelPrefetchingForRows(at: indexPaths)
    }
}
