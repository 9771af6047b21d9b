/// Where a row or section goes relative to its neighbours, by identifier.
///
/// Patches and move actions place an element next to a neighbour that the client already has,
/// because index paths from the server's render may not match the client's document.
///
///     table.moveRow("todo-3", toSection: "done", placement: .after("todo-9"))
public enum Placement<ID: Hashable & Sendable>: Hashable, Sendable {
    /// First in the container.
    case start
    /// Last in the container.
    case end
    /// Immediately after the element with this identifier.
    case after(ID)
    /// Immediately before the element with this identifier.
    case before(ID)
}

/// Where a row goes inside a section.
public typealias RowPlacement = Placement<RowID>

/// Where a section goes inside the table.
public typealias SectionPlacement = Placement<SectionID>
