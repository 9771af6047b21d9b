import TableKit

/// A section of items read by an ``ObservedSource``, one ``ObservedRow`` per item: ``show(_:)``
/// keeps the row delegate of every item whose id it shows already and makes one for each new id,
/// as IGListKit keeps section controllers by diff identifier. The page then sends only the rows
/// whose cells differ.
///
///     let list = ObservedSection<Todo>(id: "todos", header: "To do") { todo in TodoRow(item: todo) }
///     list.show(todos)
///
/// Subclass it to answer more (a footer that depends on the list, inserts, moves), calling `super`
/// for the rest.
open class ObservedSection<Item: Identifiable>: StaticSection {
    /// Makes the row delegate of an item whose id is not shown yet.
    public typealias RowProvider = (Item) -> ObservedRow<Item>

    private let makeRow: RowProvider
    /// The row delegates, in the order of the items last shown.
    public private(set) var rows: [ObservedRow<Item>] = []

    /// An empty section whose rows `row` makes.
    public init(id: SectionID, header: String? = nil, footer: String? = nil, row: @escaping RowProvider) {
        makeRow = row
        super.init(id: id, header: header, footer: footer)
    }

    /// Shows `items` in order: an item whose id was shown keeps its row delegate, which is given
    /// the item as read now; others get a new one. Of items sharing an id, the first keeps it.
    public func show(_ items: [Item]) {
        var shown = Dictionary(rows.map { ($0.item.id, $0) }, uniquingKeysWith: { first, _ in first })
        rows = items.map { item in
            guard let row = shown.removeValue(forKey: item.id) else { return makeRow(item) }
            row.item = item
            return row
        }
        childDelegates = rows
    }

    /// Puts the rows in a new order that the table recorded already (a move), so that the next
    /// ``show(_:)`` starts from it; `rows` must be the same delegates.
    public func reorder(_ rows: [ObservedRow<Item>]) {
        self.rows = rows
        childDelegates = rows
    }
}
