/// Everything one row shows, gathered from the delegate tree in one place: identity, cell,
/// heights and affordances.
///
/// Renderers write records; the table keeps the last committed record of each row so that a
/// reload of an unchanged row produces no patch (identity plus equality, like IGListKit's
/// `ListDiffable`).
public struct RowRecord: Hashable, Sendable {
    /// The row's stable identifier.
    public var id: RowID
    /// The configured cell.
    public var cell: TableCell
    /// The row height.
    public var height: TableHeight
    /// The estimated height, when one was given.
    public var estimatedHeight: TableHeight?
    /// The indentation level.
    public var indentationLevel: Int
    /// Whether selecting the row does anything (`shouldHighlightRow`).
    public var isSelectable: Bool
    /// The editing control; `.none` unless the row is editable.
    public var editingStyle: EditingStyle
    /// The delete button's title when the editing style is `.delete`.
    public var deleteConfirmationTitle: String?
    /// Whether the row can be moved.
    public var canMove: Bool
    /// The row's named actions.
    public var actions: [RowAction]
    /// The path on this site the row is a link to (``TableDelegate/linkForRow(at:)``), or nil.
    public var link: String?

    /// Creates a record.
    public init(
        id: RowID,
        cell: TableCell,
        height: TableHeight = .automatic,
        estimatedHeight: TableHeight? = nil,
        indentationLevel: Int = 0,
        isSelectable: Bool = true,
        editingStyle: EditingStyle = .none,
        deleteConfirmationTitle: String? = nil,
        canMove: Bool = false,
        actions: [RowAction] = [],
        link: String? = nil
    ) {
        self.id = id
        self.cell = cell
        self.height = height
        self.estimatedHeight = estimatedHeight
        self.indentationLevel = indentationLevel
        self.isSelectable = isSelectable
        self.editingStyle = editingStyle
        self.deleteConfirmationTitle = deleteConfirmationTitle
        self.canMove = canMove
        self.actions = actions
        self.link = link
    }
}
