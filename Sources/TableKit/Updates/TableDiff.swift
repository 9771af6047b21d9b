/// The difference between two states of a table, matched by identifier and expressed as the
/// batch updates that turn one into the other, so that ``ChangesetBuilder`` validates and orders
/// it exactly as it does a batch a delegate reports.
///
/// Sections and rows found in both states keep their place when they belong to the longest run
/// that kept its relative order (a longest increasing subsequence); the others move. Content
/// changes become reconfigured rows and reloaded sections.
///
///     let updates = TableDiff(old: committed, new: current)
///         .updates(isSectionChanged: { … }, isRowChanged: { … })
struct TableDiff {
    let old: TableSnapshot
    let new: TableSnapshot

    /// The batch updates from `old` to `new`, or nil when the states cannot be matched because
    /// an identifier appears twice in one of them.
    /// - Parameters:
    ///   - isSectionChanged: whether a section found in both states shows something else around
    ///     its rows (header, footer…); such a section is sent whole.
    ///   - isRowChanged: whether a row found in both states shows something else.
    func updates(isSectionChanged: (SectionID) -> Bool, isRowChanged: (RowID) -> Bool) -> BatchUpdates? {
        guard old.hasUniqueIdentifiers, new.hasUniqueIdentifiers else { return nil }
        var updates = BatchUpdates()
        let sections = matchSections(isChanged: isSectionChanged, into: &updates)
        matchRows(sections, isChanged: isRowChanged, into: &updates)
        return updates
    }

    /// How sections correspond. A section sent whole (inserted, deleted or reloaded) carries its
    /// rows, so rows only need describing where a side is not whole.
    private struct SectionMatch {
        /// For each old section whose element the client keeps, the new section it becomes:
        /// staying, moving or reloaded in place; nil when it is deleted.
        var target: [Int?]
        var isWholeOld: [Bool]
        var isWholeNew: [Bool]
    }

    private func matchSections(isChanged: (SectionID) -> Bool, into updates: inout BatchUpdates) -> SectionMatch {
        var match = SectionMatch(
            target: Array(repeating: nil, count: old.sections.count),
            isWholeOld: Array(repeating: true, count: old.sections.count),
            isWholeNew: Array(repeating: true, count: new.sections.count)
        )
        var common: [(old: Int, new: Int)] = []
        for (index, section) in old.sections.enumerated() {
            if let newIndex = new.sectionIndexes[section.id] {
                common.append((index, newIndex))
            } else {
                updates.deletedSections.append(index)
            }
        }
        for (index, section) in new.sections.enumerated() where old.sectionIndexes[section.id] == nil {
            updates.insertedSections.append(index)
        }
        let stays = Self.longestIncreasingSubsequence(common.map(\.new))
        for (position, pair) in common.enumerated() {
            switch (stays[position], isChanged(old.sections[pair.old].id)) {
            case (true, false):
                match.target[pair.old] = pair.new
                match.isWholeOld[pair.old] = false
                match.isWholeNew[pair.new] = false
            case (false, false):
                updates.movedSections.append((pair.old, pair.new))
                match.target[pair.old] = pair.new
                match.isWholeOld[pair.old] = false
                match.isWholeNew[pair.new] = false
            case (true, true):
                updates.reloadedSections.append(pair.old)
                match.target[pair.old] = pair.new
            case (false, true):
                // UIKit forbids reloading a moved section; sent whole either way, a delete and an
                // insert cost the client the same as a move and a replace.
                updates.deletedSections.append(pair.old)
                updates.insertedSections.append(pair.new)
            }
        }
        return match
    }

    private func matchRows(_ sections: SectionMatch, isChanged: (RowID) -> Bool, into updates: inout BatchUpdates) {
        // Rows leaving sections whose element stays: deleted, staying or moving. Rows of deleted
        // sections go with them.
        for (sectionIndex, section) in old.sections.enumerated() {
            guard let targetSection = sections.target[sectionIndex] else { continue }
            let targets = section.rows.map { new.rowPaths[$0] }
            if sections.isWholeOld[sectionIndex] {
                // Reloaded in place, it is replaced only after everything else is placed: a row
                // bound for another section sent whole must leave it first, or the document
                // would hold the row twice in between.
                for (row, target) in targets.enumerated() {
                    if let target, target.section != targetSection, sections.isWholeNew[target.section] {
                        updates.movedRows.append((TableIndexPath(section: sectionIndex, row: row), target))
                    }
                }
                continue
            }
            let stays = stayingRows(targets, into: targetSection)
            for (row, target) in targets.enumerated() where !stays[row] {
                let source = TableIndexPath(section: sectionIndex, row: row)
                if let target {
                    // Into a section sent whole, the builder turns this into a delete.
                    updates.movedRows.append((source, target))
                } else {
                    updates.deletedRows.append(source)
                }
            }
        }
        // Rows arriving in sections that are not sent whole: new ones, ones out of sections sent
        // whole (the loop above saw every other source), and content changes.
        for (sectionIndex, section) in new.sections.enumerated() where !sections.isWholeNew[sectionIndex] {
            for (row, id) in section.rows.enumerated() {
                let destination = TableIndexPath(section: sectionIndex, row: row)
                guard let source = old.rowPaths[id] else {
                    updates.insertedRows.append(destination)
                    continue
                }
                if sections.isWholeOld[source.section] {
                    updates.movedRows.append((source, destination))
                }
                if isChanged(id) {
                    updates.reconfiguredRows.insert(id)
                }
            }
        }
    }

    /// Which rows of an old section keep their place: those that stay in its target section and
    /// belong to the longest run in unchanged relative order.
    private func stayingRows(_ targets: [TableIndexPath?], into targetSection: Int) -> [Bool] {
        var stays = Array(repeating: false, count: targets.count)
        var candidates: [Int] = []
        var newRows: [Int] = []
        for (row, target) in targets.enumerated() {
            if let target, target.section == targetSection {
                candidates.append(row)
                newRows.append(target.row)
            }
        }
        for (position, staying) in Self.longestIncreasingSubsequence(newRows).enumerated() where staying {
            stays[candidates[position]] = true
        }
        return stays
    }

    /// Marks a longest strictly increasing subsequence of distinct values, in O(n log n)
    /// (patience sorting): the elements that can stay while the others move.
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        // `tails[k]` is the index of the smallest value ending an increasing run of length k + 1.
        var tails: [Int] = []
        var predecessors = Array(repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            if low > 0 {
                predecessors[index] = tails[low - 1]
            }
            if low == tails.count {
                tails.append(index)
            } else {
                tails[low] = index
            }
        }
        var members = Array(repeating: false, count: values.count)
        var index = tails.last ?? -1
        while index >= 0 {
            members[index] = true
            index = predecessors[index]
        }
        return members
    }
}
