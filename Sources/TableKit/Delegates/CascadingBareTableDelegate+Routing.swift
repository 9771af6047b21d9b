extension CascadingBareTableDelegate {
    /// Calls `body` once per child with the index paths that belong to it, in first-seen order;
    /// paths whose child index is out of range reach no child.
    func forEachChild(
        owning indexPaths: [TableIndexPath],
        childIndex: (TableIndexPath) -> Int,
        _ body: (any CascadingTableDelegate, [TableIndexPath]) -> Void
    ) {
        var order: [Int] = []
        var groups: [Int: [TableIndexPath]] = [:]
        for indexPath in indexPaths {
            let key = childIndex(indexPath)
            guard childDelegate(at: key) != nil else { continue }
            if groups[key] == nil {
                order.append(key)
            }
            groups[key, default: []].append(indexPath)
        }
        for key in order {
            body(childDelegates[key], groups[key] ?? [])
        }
    }
}
