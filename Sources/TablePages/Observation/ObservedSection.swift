import TableKit

/// A section of items read by an ``ObservedSource``, one ``ObservedRow`` per item: ``show(_:)``
/// keeps the row delegate of every item whose id it shows already and makes one for each new id,
/// as IGListKit keeps section controllers by diff identifier. The page then sends only the rows
/// whose cells differ.
///
///     let list = ObservedSection<Todo>(id: "todos", header: "To do") { todo in TodoRow(item: todo) }
///     list.show(todos)
///
/// With `adding:`, the section ends with the library's form to add an item, of the declared
/// fields, shown to viewers who may write; `add` is given the checked values and writes them to the
/// store, and the page shows the new item when the store announces it, as for any other writer's.
///
///     ObservedSection(id: "to-read", header: "To read", adding: Book.fields, prompt: "Add a book", add: { values in
///         try Book.add(values, to: store)
///     }) { book in BookRow(item: book) }
///
/// Subclass it to answer more (a footer that depends on the list, inserts, moves), calling `super`
/// for the rest.
open class ObservedSection<Item: Identifiable>: StaticSection {
    /// Makes the row delegate of an item whose id is not shown yet.
    public typealias RowProvider = (Item) -> ObservedRow<Item>

    private let makeRow: RowProvider
    // The add form's row, its fields and what it does; nil for a section with no form.
    private let addition: Addition?
    /// The row delegates, in the order of the items last shown.
    public private(set) var rows: [ObservedRow<Item>] = []

    /// An empty section whose rows `row` makes; with `fields`, it ends with a form of them that
    /// adds an item (its row labelled `prompt`), whose checked values `add` is given.
    public init(
        id: SectionID, header: String? = nil, footer: String? = nil,
        adding fields: [FormField] = [], prompt: String = "Add", add: (([String: String]) throws -> Void)? = nil,
        row: @escaping RowProvider
    ) {
        makeRow = row
        // Plain branches, no closures: Swift 6.3.1's release optimiser crashed on this initializer
        // when it made the optional tuple of the form with `Optional.map`.
        var made: Addition?
        var formRows: [any CascadingTableDelegate] = []
        if let add {
            let formRow = AddRow(id: RowID("\(id.rawValue)-add"), prompt: prompt)
            made = Addition(row: formRow, fields: fields, add: add)
            formRows.append(formRow)
        }
        addition = made
        super.init(id: id, header: header, footer: footer, rows: formRows)
    }

    /// The add form's fields (none without one).
    open override func fieldsForInserting(inSection section: Int) -> [FormField] {
        addition?.fields ?? super.fieldsForInserting(inSection: section)
    }

    /// An insertion from the add form, delivered here at the index one past the last row, goes to
    /// `add`; others as the section's ``/TableKit/StaticSection`` answers them.
    open override func commit(_ editingStyle: EditingStyle, forRowAt indexPath: TableIndexPath, values: [String: String]) throws {
        guard editingStyle == .insert, let addition else {
            return try super.commit(editingStyle, forRowAt: indexPath, values: values)
        }
        try addition.add(values)
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
        childDelegates = children(of: rows)
    }

    /// Puts the rows in a new order that the table recorded already (a move), so that the next
    /// ``show(_:)`` starts from it; `rows` must be the same delegates.
    public func reorder(_ rows: [ObservedRow<Item>]) {
        self.rows = rows
        childDelegates = children(of: rows)
    }

    // The section's children: the rows, then the add form's row.
    private func children(of rows: [ObservedRow<Item>]) -> [any CascadingTableDelegate] {
        rows + (addition.map { [$0.row] } ?? [])
    }

    /// The add form: its row, its fields, and what it does with their checked values.
    private struct Addition {
        let row: AddRow
        let fields: [FormField]
        let add: ([String: String]) throws -> Void
    }

    /// The row that carries the add form: editable, as an insertion.
    private final class AddRow: StaticRow {
        init(id: RowID, prompt: String) {
            super.init(id: id, cell: TableCell(.basic, CellContent(title: prompt)))
        }

        override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
        override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
    }
}
