import Synchronization

/// The pages of a ``Site`` while it runs: the one ``PageRegistry`` its features built, to which a
/// feature may add pages later — a table created in a served database, say. Every route reads the
/// registry as it is at that moment, so a page registered here is answered at once: its URLs, its
/// `.json`, its live stream, and its place in the index.
///
///     struct Tables: SiteFeature {
///         func add(to site: inout SiteBuilder) {
///             let pages = site.livePages
///             onNewTable { table in pages.register(page(for: table)) }
///         }
///     }
///
/// Registering a page under a name already taken replaces that page: the variants made from the
/// old definition are dropped, and every browser following one is told to fetch the page again;
/// so are a removed page's.
public final class SitePages: Sendable {
    private let state = Mutex(Contents())

    private struct Contents {
        var registry = PageRegistry()
        var onReplace: [@Sendable (String) -> Void] = []
    }

    /// Pages starting with `registry` (a ``Site`` makes its own, ``SiteBuilder/livePages``).
    public init(_ registry: PageRegistry = PageRegistry()) {
        state.withLock { $0.registry = registry }
    }

    /// The pages now, in index order.
    public var registry: PageRegistry { state.withLock { $0.registry } }

    /// Adds `page`, after the others, or in place of the page of the same name.
    public func register(_ page: PageDefinition) {
        let (replaced, observers) = state.withLock { state in
            let replaced = state.registry.page(named: page.name) != nil
            state.registry.register(page)
            return (replaced, state.onReplace)
        }
        // Outside the lock: dropping a page's variants takes the hosts' own.
        if replaced { for observer in observers { observer(page.name) } }
    }

    /// Removes the page named `name` (its table is gone): its variants are dropped, and every
    /// browser following one is told to fetch the page again, which is then not found.
    public func remove(named name: String) {
        let (removed, observers) = state.withLock { state in
            let removed = state.registry.page(named: name) != nil
            state.registry.remove(named: name)
            return (removed, state.onReplace)
        }
        if removed { for observer in observers { observer(name) } }
    }

    /// Starts with `registry`: the pages the features added while the site was built.
    func start(with registry: PageRegistry) {
        state.withLock { $0.registry = registry }
    }

    /// Calls `observer` with a page's name each time a registration replaces that page, or it is removed.
    func onReplace(_ observer: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.onReplace.append(observer) }
    }
}
