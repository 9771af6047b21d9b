import TableKit

extension ObservedSource {
    /// A root showing the items `fetch` reads as cells of one `kind`, grouped into sections in
    /// the order sections first appear: the page for a list.
    ///
    ///     ObservedSource(store, fetch: { db in try Product.all(db) }, section: { (id: $0.category, title: $0.category) }) { product in
    ///         CellContent(title: product.name, detail: product.price)
    ///     } select: { product in try store.markSeen(product.id) }
    ///
    /// - Parameters:
    ///   - store: the data, and what says when it changed.
    ///   - fetch: reads the items, in one snapshot.
    ///   - kind: the cell kind of every row.
    ///   - section: the identifier and header title of an item's section; one section for all by default.
    ///   - cell: what an item's row shows.
    ///   - select: what selecting an item's row does (usually a write to the store).
    ///   - link: the page on this site an item's row is a plain link to, for every viewer (signed
    ///     in or not), nil for none. Rows can be selected when there is a `select`.
    public convenience init<Reader, Item: Identifiable>(
        _ store: any ObservableStore<Reader>, fetch: @escaping (Reader) throws -> [Item], kind: CellKind = .basic,
        section: @escaping (Item) -> (id: String, title: String?) = { _ in (id: "items", title: nil) },
        cell: @escaping (Item) -> CellContent, select: ((Item) throws -> Void)? = nil, link: ((Item) -> String?)? = nil
    ) where Value == [Item] {
        self.init(store, fetch: fetch, local: nil, kind: kind, section: section, cell: cell, select: select, link: link)
    }

    /// The list of cells of ``init(_:fetch:kind:section:cell:select:link:)``, also showing state of
    /// this process alone announced on `local` (see ``init(_:fetch:local:sections:)``).
    package convenience init<Reader, Item: Identifiable>(
        _ store: any ObservableStore<Reader>, fetch: @escaping (Reader) throws -> [Item], local: ChangeFeed?, kind: CellKind = .basic,
        section: @escaping (Item) -> (id: String, title: String?) = { _ in (id: "items", title: nil) },
        cell: @escaping (Item) -> CellContent, select: ((Item) throws -> Void)? = nil, link: ((Item) -> String?)? = nil
    ) where Value == [Item] {
        self.init(store, fetch: fetch, local: local)
        let sections = CellSections(section: section) { item in CellRow(item: item, kind: kind, cell: cell, select: select, link: link) }
        present = { root, items in
            let shown = sections.show(items)
            if shown.map(ObjectIdentifier.init) != root.childDelegates.map(ObjectIdentifier.init) {
                root.childDelegates = shown
            }
        }
    }

    /// ``init(_:fetch:kind:section:cell:select:link:)`` over a store whose value is the list
    /// itself, such as a ``MemoryStore`` of items.
    ///
    ///     let shelf = MemoryStore(Book.samples)
    ///     ObservedSource(shelf, kind: .subtitle) { book in CellContent(title: book.title) }
    public convenience init<Item: Identifiable>(
        _ store: any ObservableStore<[Item]>, kind: CellKind = .basic,
        section: @escaping (Item) -> (id: String, title: String?) = { _ in (id: "items", title: nil) },
        cell: @escaping (Item) -> CellContent, select: ((Item) throws -> Void)? = nil, link: ((Item) -> String?)? = nil
    ) where Value == [Item] {
        self.init(store, fetch: { $0 }, kind: kind, section: section, cell: cell, select: select, link: link)
    }
}

/// The sections of a list of cells, kept by section id as their rows are kept by item id.
private final class CellSections<Item: Identifiable> {
    private let section: (Item) -> (id: String, title: String?)
    private let makeRow: ObservedSection<Item>.RowProvider
    private var sections: [SectionID: ObservedSection<Item>] = [:]

    init(section: @escaping (Item) -> (id: String, title: String?), row: @escaping ObservedSection<Item>.RowProvider) {
        self.section = section
        makeRow = row
    }

    /// The sections of `items`, in the order they first appear, each showing its items.
    func show(_ items: [Item]) -> [ObservedSection<Item>] {
        var order: [SectionID] = []
        var grouped: [SectionID: (title: String?, items: [Item])] = [:]
        for item in items {
            let (name, title) = section(item)
            let id = SectionID(name)
            if grouped[id] == nil {
                order.append(id)
                grouped[id] = (title, [])
            }
            grouped[id]?.items.append(item)
        }
        var kept: [SectionID: ObservedSection<Item>] = [:]
        let shown = order.map { id in
            let (title, items) = grouped[id]!
            let shown = sections[id] ?? ObservedSection(id: id, row: makeRow)
            shown.header = title
            shown.show(items)
            kept[id] = shown
            return shown
        }
        sections = kept
        return shown
    }
}

/// A row of a list of cells: its item's cell, and what selecting it does.
private final class CellRow<Item: Identifiable>: ObservedRow<Item> {
    private let kind: CellKind
    private let cell: (Item) -> CellContent
    private let select: ((Item) throws -> Void)?
    private let link: ((Item) -> String?)?

    init(item: Item, kind: CellKind, cell: @escaping (Item) -> CellContent, select: ((Item) throws -> Void)?, link: ((Item) -> String?)?) {
        self.kind = kind
        self.cell = cell
        self.select = select
        self.link = link
        super.init(item: item)
    }

    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(kind, cell(item)) }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { select != nil }
    override func linkForRow(at indexPath: TableIndexPath) -> String? { link?(item) }

    override func didSelectRow(at indexPath: TableIndexPath) throws {
        try select?(item)
    }
}
