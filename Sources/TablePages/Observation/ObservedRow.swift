import TableKit

/// The row delegate of one item of an ``ObservedSection``: the section keeps it for as long as
/// its item's id is read, handing it each new read of the item, so that what the row holds besides
/// the item (a task it started, a choice in progress) lasts across reads.
///
///     final class TodoRow: ObservedRow<Todo> {
///         override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.subtitle, TodoCell(todo: item)) }
///         override func didSelectRow(at indexPath: TableIndexPath) throws { try list.toggle(item.id) }
///     }
///
/// Its row id is the item's id as text; override ``rowID(forRowAt:)`` for another.
open class ObservedRow<Item: Identifiable>: CascadingBareTableDelegate {
    /// The item as last read.
    public internal(set) var item: Item

    /// A row showing `item`.
    public init(item: Item) {
        self.item = item
        super.init()
    }

    /// The item's id as text.
    open override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { RowID(String(describing: item.id)) }
}
