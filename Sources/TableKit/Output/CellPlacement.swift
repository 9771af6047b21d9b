/// Where a cell is being written, for a kind whose cells link to their row's own URL: a database
/// record cuts long values in a page and links each to the row's URL, where they are whole.
///
///     let record = CellKind(reuseIdentifier: "record") { content, placement, out in
///         out.append("<a href=\"")
///         placement.appendRowURL(into: &out)
///         out.append("\">whole row</a>")
///     }
///
/// The URL is the one the row's `GET /pages/{page}/rows/{row}` answers, with the page variant's
/// query, so following it reaches the same live table.
public struct CellPlacement: Sendable {
    private let context: RenderContext?
    private let row: RowID?

    /// A cell written as the row `row` of a table that lives at `context`.
    init(context: RenderContext, row: RowID) {
        self.context = context
        self.row = row
    }

    private init() {
        context = nil
        row = nil
    }

    /// A cell that is no row's: a table's or a section's header or footer view, or a cell written
    /// outside a table.
    public static let unplaced = CellPlacement()

    /// Whether the cell is a row's, so ``appendRowURL(into:)`` writes a URL.
    public var isRow: Bool { row != nil }

    /// Appends the URL of the cell's row on its own (`/pages/{page}/rows/{row}?{variant}`),
    /// escaped for a double-quoted HTML attribute; nothing when the cell is no row's.
    public func appendRowURL(into out: inout OutputBuffer) {
        guard let context, let row else { return }
        context.appendRowURL(row, suffix: "", into: &out)
    }
}
