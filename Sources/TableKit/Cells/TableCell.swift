/// A configured cell: the reuse identifier of its kind and the content it shows.
///
/// The equivalent of a dequeued, configured `UITableViewCell`, returned from
/// ``TableDataSource/cell(forRowAt:)``.
///
///     TableCell(.value, CellContent(title: "Milk", detail: "2 l"))
public struct TableCell: Hashable, Sendable {
    /// The reuse identifier of the ``CellKind`` that renders this cell.
    public var reuseIdentifier: String
    /// What the cell shows.
    public var content: CellContent

    /// Creates a cell rendered by the kind registered under `reuseIdentifier`.
    public init(reuseIdentifier: String, content: CellContent) {
        self.reuseIdentifier = reuseIdentifier
        self.content = content
    }

    /// Creates a cell of `kind` filled from a data provider.
    // Inlinable for the same reason as `CellContent.init(_:)`, which it calls.
    @inlinable
    public init(_ kind: CellKind, _ provider: some CellDataProvider) {
        self.init(reuseIdentifier: kind.reuseIdentifier, content: CellContent(provider))
    }

    /// A basic cell with no content, the default of ``TableDataSource/cell(forRowAt:)``.
    public static let blank = TableCell(reuseIdentifier: CellKind.basic.reuseIdentifier, content: .empty)
}
