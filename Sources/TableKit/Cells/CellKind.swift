/// A reusable cell template, registered once per reuse identifier (the `register(_:forCellReuseIdentifier:)` idea).
///
/// A kind writes the inner HTML of a cell from its ``CellContent``; the renderer writes the row
/// element around it, and JSON output is the same for every kind (the content's fields).
///
///     let price = CellKind(reuseIdentifier: "price") { content, out in
///         out.append("<span class=\"tk-title\">")
///         out.appendEscapedHTML(content.title ?? "")
///         out.append("</span>")
///     }
///     table.register(price)
///
/// Implementation requirements: `render` must write well-formed phrasing content (it is placed
/// inside a `<button>` when the row is selectable), escape every text value with
/// ``OutputBuffer/appendEscapedHTML(_:)``, and write no script.
public struct CellKind: Sendable {
    /// The identifier cells use to pick this kind.
    public let reuseIdentifier: String
    /// Writes the cell's inner HTML.
    public let render: @Sendable (CellContent, inout OutputBuffer) -> Void

    /// Whether the kind writes a `role="cell"` element of its own for each value (as a database
    /// record writes one per column), so that assistive technology reads a row as its values; the
    /// renderer's element around them is then no cell itself (`role="none"`). False by default:
    /// the cell is one table cell.
    public var writesCells = false

    /// Writes the cell's inner HTML knowing where it is written (its row's URL).
    let renderPlaced: @Sendable (CellContent, CellPlacement, inout OutputBuffer) -> Void

    /// Creates a kind with a render function.
    public init(reuseIdentifier: String, render: @escaping @Sendable (CellContent, inout OutputBuffer) -> Void) {
        self.reuseIdentifier = reuseIdentifier
        self.render = render
        renderPlaced = { content, _, out in render(content, &out) }
    }

    /// Creates a kind whose render function also gets the cell's ``CellPlacement``, e.g. to link to
    /// the cell's row; ``render`` then writes the cell as ``CellPlacement/unplaced``.
    ///
    ///     CellKind(reuseIdentifier: "record") { content, placement, out in … }
    public init(reuseIdentifier: String, render: @escaping @Sendable (CellContent, CellPlacement, inout OutputBuffer) -> Void) {
        self.reuseIdentifier = reuseIdentifier
        self.render = { content, out in render(content, .unplaced, &out) }
        renderPlaced = render
    }
}
