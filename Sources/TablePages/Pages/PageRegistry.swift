/// The pages the service offers, in index order.
///
///     var pages = PageRegistry()
///     pages.register(todoPage)
public struct PageRegistry: Sendable {
    /// The pages, in the order they were registered.
    public private(set) var pages: [PageDefinition] = []

    /// Creates an empty registry.
    public init() {}

    /// Adds a page; a page with the same name replaces the earlier one.
    public mutating func register(_ page: PageDefinition) {
        pages.removeAll { $0.name == page.name }
        pages.append(page)
    }

    /// The page named `name`, or nil.
    public func page(named name: String) -> PageDefinition? {
        pages.first { $0.name == name }
    }
}
