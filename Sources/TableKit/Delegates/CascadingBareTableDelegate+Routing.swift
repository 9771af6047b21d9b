// The routing every cascading delegate shares: the hooks name a child, these helpers turn that
// into an answer, falling back to the protocol defaults (through `DefaultTableDelegate`) so a
// call that reaches no child answers exactly what an unimplemented method would.
extension CascadingBareTableDelegate {
    /// Who answers a section call: the child ``childDelegate(forSection:)`` names, else the defaults.
    func responder(forSection section: Int) -> any TableRoot {
        childDelegate(forSection: section) ?? DefaultTableDelegate()
    }

    /// Who answers a row call: the child ``childDelegate(forRowAt:)`` names, else the defaults.
    func responder(forRowAt indexPath: TableIndexPath) -> any TableRoot {
        childDelegate(forRowAt: indexPath) ?? DefaultTableDelegate()
    }

    /// The child's estimate, else the child's height; the default estimate when there is no child.
    func estimate(
        from child: (any CascadingTableDelegate)?,
        _ estimated: (any TableRoot) -> TableHeight?,
        height: (any TableRoot) -> TableHeight
    ) -> TableHeight? {
        guard let child else { return estimated(DefaultTableDelegate()) }
        return estimated(child) ?? height(child)
    }

    /// Calls `body` once per child ``childDelegate(forRowAt:)`` names, with the index paths it
    /// names it for, in first-seen order; paths it names no child for reach no one.
    func forEachChild(owning indexPaths: [TableIndexPath], _ body: (any CascadingTableDelegate, [TableIndexPath]) -> Void) {
        var order: [any CascadingTableDelegate] = []
        var groups: [ObjectIdentifier: [TableIndexPath]] = [:]
        for indexPath in indexPaths {
            guard let child = childDelegate(forRowAt: indexPath) else { continue }
            let key = ObjectIdentifier(child)
            if groups[key] == nil {
                order.append(child)
            }
            groups[key, default: []].append(indexPath)
        }
        for child in order {
            body(child, groups[ObjectIdentifier(child)] ?? [])
        }
    }
}
