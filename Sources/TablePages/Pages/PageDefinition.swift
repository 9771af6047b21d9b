import TableKit

/// One page the service offers: its name in URLs, its title, the variants it comes in, the cell
/// kinds its rows use besides the built-in ones, and how to build the delegate tree of a variant.
///
///     PageDefinition(name: "products", title: "Products", variants: ["layout": ["list", "sections"]]) { variant in
///         variant["layout"] == "sections" ? bySection() : list()
///     }
///
/// The page's host makes the variant's ``/TableKit/TableAdapter`` over the root the factory returns
/// (a ``PageSource``, whose abilities the page routes to, or a plain ``/TableKit/TableRoot``):
/// it titles it with ``title``, registers ``cellKinds`` and numbers its states by the data's version
/// when the root reads versioned snapshots (an ``ObservedSource`` over a store with a version clock), by ids of its own otherwise, so a client's `Last-Event-ID` from before a
/// restart or from another instance is replayed only when it names the same state, and answered with
/// `reset` otherwise.
public struct PageDefinition: Sendable {
    /// Builds the delegate tree for one variant; called once per variant, inside that variant's
    /// host, on a thread where it may block (read a database). Throwing ``VariantError`` says the
    /// variant names nothing (e.g. an id no row has): the client gets 404 with its message.
    public typealias TableFactory = @Sendable (PageVariant) throws -> any PageSource
    /// Like ``TableFactory``, for a root with no ``PageSource`` abilities.
    public typealias PlainTableFactory = @Sendable (PageVariant) throws -> any TableRoot
    /// Chooses variant parameters that no fixed list of values can name (a filter on any column,
    /// a sort key) from a request's whole query: returns the chosen parameters, leaving out those
    /// at their default so equal shapes give equal variants, or throws a message for the client.
    /// It sees every query item, so it ignores the ones that are not about the page's shape
    /// (`after`, `limit`, `format`, `lastEventId`). It runs on the server's event threads for every
    /// page request, so it must not block: check the form of values here, and whether they name
    /// anything in the factory.
    public typealias VariantResolver = @Sendable ([String: String]) throws(VariantError) -> [String: String]
    /// Like ``VariantResolver``, but given every query item in order, with the names that repeat
    /// (`_facet=a&_facet=b`), for variants that take lists.
    public typealias VariantItemsResolver = @Sendable ([(name: String, value: String)]) throws(VariantError) -> [String: String]
    /// Counts the default variant's rows for the index of pages. It runs on a database lane, where
    /// it may block; nil means more rows than it could count in the time it has (the index says
    /// "many"), and a throw leaves the count out.
    public typealias RowCounter = @Sendable () throws -> Int?

    /// The page's URL name, e.g. `todo` in `/pages/todo`.
    public var name: String { parts.name }
    /// The title shown in the index and as the heading of every variant's table.
    public var title: String { parts.title }
    /// One line for the index.
    public var summary: String { parts.summary }
    /// The query parameters that change the table's shape, each with its allowed values; the
    /// first value is the default, e.g. `["layout": ["list", "sections"]]`.
    public var variants: [String: [String]] { parts.variants }
    /// Chooses open-ended variant parameters; nil when ``variants`` says everything.
    ///
    /// Every distinct answer is a variant with a live table of its own. The service keeps a bounded
    /// number of them per page (see ``LiveSettings/maxVariantsPerPage``), dropping unwatched ones.
    public var resolveVariant: VariantResolver? { parts.resolveVariant }
    /// Chooses open-ended variant parameters from every query item; asked instead of
    /// ``resolveVariant`` when given.
    public var resolveVariantItems: VariantItemsResolver? { parts.resolveVariantItems }
    /// Builds a variant's delegate tree, and says what its page can do (the root itself, or none).
    var makeSource: @Sendable (PageVariant) throws -> (root: any TableRoot, abilities: any PageSource) { parts.makeSource }
    /// The cell kinds the page's rows use besides the built-in ones; registered on every table of
    /// the page, including those a root's ``PageSource/rowPager`` or ``PageSource/root(ofRow:)`` returns.
    public var cellKinds: [CellKind] { parts.cellKinds }
    /// Where changes to the page's data are announced, besides its root's own (a database's
    /// table pages, whose rows are read as asked for); nil for most pages, whose roots observe
    /// their data (``ObservedSource``). Set before the page is registered.
    package var changes: ChangeFeed?
    /// Who may read the page and who may write it; ``PageAccess/signedInWrites`` unless given.
    public var access: PageAccess { parts.access }
    /// Whether each viewer gets a table of their own: the request's actor is then part of the
    /// variant (``PageVariant/viewer``), so one viewer's rows and patches never reach another, and
    /// anonymous clients are refused with 401.
    public let perViewer: Bool
    /// Whether the index of pages lists the page; an unlisted page is served all the same (a
    /// full-text index's shadow tables, which hold data for SQLite rather than for people).
    public let isListed: Bool
    /// Counts the page's rows for the index; nil for a page the index shows without a count.
    public var countRows: RowCounter? { parts.countRows }
    /// The most variants of this page live at once, watched or not; nil for
    /// ``LiveSettings/maxVariantsPerPage``, which watched variants may pass. Past it, a new variant
    /// drops the least recently used unwatched one, and is answered 503 when every one is watched
    /// (a page of visitors' SQL, each variant a query re-run on every change).
    public var maxVariants: Int?
    /// Whether a variant re-reads its data after a change only while someone watches it (its event
    /// stream is open); false (the default) re-reads every live variant. An unwatched variant then
    /// re-reads when it is next rendered or watched, so neither a reader nor a returning
    /// subscriber sees it stale: for pages whose re-read costs much (visitors' SQL, re-run whole).
    public var rereadsOnlyWhileWatched = false
    /// Whether the page's variants run on the query lane (``LiveSettings/queryLaneQueueLimit``)
    /// rather than on the lanes table pages share: for pages whose reads wait for a connection of
    /// their own and may each take up to a query time limit (visitors' SQL), so that however many
    /// wait, table pages and `/readyz` do not wait behind them.
    public var runsOnQueryLane = false
    /// Whether the page and its rows' own pages show breadcrumbs, as a database's tables do: the
    /// site (its index) › the page › the row, each a link. False (the default): a row's page links
    /// back to its page alone.
    public var showsBreadcrumbs = false
    /// The forms that edit the page's rows, linked for viewers who may write; nil (the default)
    /// for a page whose rows are edited through its delegates' controls alone, or not at all.
    public var editForms: PageEditForms?
    /// The variant parameter that makes a variant of one row (its value the row's id), when the
    /// page has such variants: a row's own URL is then served from that variant, whose root
    /// re-reads only the row, and its document follows the variant's stream, so the row stays
    /// live. Nil (the default): a row's own page shows the row as it was when loaded.
    public var rowVariantParameter: String?
    /// What a page is, boxed: a definition is copied on every page request (the registry's answer,
    /// the resolved request), and a box is one reference to count, where its fields are a dozen.
    private let parts: Parts

    private final class Parts: Sendable {
        let name: String
        let title: String
        let summary: String
        let variants: [String: [String]]
        // Each of `variants`' parameters with its default value, made once: every page request's
        // variant carries them.
        let variantDefaults: [String: String]
        let resolveVariant: VariantResolver?
        let resolveVariantItems: VariantItemsResolver?
        let makeSource: @Sendable (PageVariant) throws -> (root: any TableRoot, abilities: any PageSource)
        let cellKinds: [CellKind]
        let access: PageAccess
        let countRows: RowCounter?

        init(
            name: String, title: String, summary: String, variants: [String: [String]], resolveVariant: VariantResolver?,
            resolveVariantItems: VariantItemsResolver?, makeSource: @escaping @Sendable (PageVariant) throws -> (root: any TableRoot, abilities: any PageSource),
            cellKinds: [CellKind], access: PageAccess, countRows: RowCounter?
        ) {
            self.name = name
            self.title = title
            self.summary = summary
            self.variants = variants.filter { !$0.value.isEmpty }
            variantDefaults = self.variants.mapValues { $0[0] }
            self.resolveVariant = resolveVariant
            self.resolveVariantItems = resolveVariantItems
            self.makeSource = makeSource
            self.cellKinds = cellKinds
            self.access = access
            self.countRows = countRows
        }
    }

    /// Creates a page definition whose roots are ``PageSource``s: the page routes to their abilities.
    public init(
        name: String, title: String, summary: String = "", variants: [String: [String]] = [:],
        resolveVariant: VariantResolver? = nil, resolveVariantItems: VariantItemsResolver? = nil,
        cellKinds: [CellKind] = [],
        access: PageAccess = .signedInWrites, perViewer: Bool = false,
        isListed: Bool = true, countRows: RowCounter? = nil,
        makeRoot: @escaping TableFactory
    ) {
        self.init(
            name: name, title: title, summary: summary, variants: variants, resolveVariant: resolveVariant,
            resolveVariantItems: resolveVariantItems, cellKinds: cellKinds, access: access,
            perViewer: perViewer, isListed: isListed, countRows: countRows,
            makeSource: { variant in
                let root = try makeRoot(variant)
                return (root, root)
            }
        )
    }

    /// Creates a page definition whose roots have no ``PageSource`` abilities: the page pages,
    /// shows and compares their live tables, and offers no download.
    @_disfavoredOverload
    public init(
        name: String, title: String, summary: String = "", variants: [String: [String]] = [:],
        resolveVariant: VariantResolver? = nil, resolveVariantItems: VariantItemsResolver? = nil,
        cellKinds: [CellKind] = [],
        access: PageAccess = .signedInWrites, perViewer: Bool = false,
        isListed: Bool = true, countRows: RowCounter? = nil,
        makeRoot: @escaping PlainTableFactory
    ) {
        self.init(
            name: name, title: title, summary: summary, variants: variants, resolveVariant: resolveVariant,
            resolveVariantItems: resolveVariantItems, cellKinds: cellKinds, access: access,
            perViewer: perViewer, isListed: isListed, countRows: countRows,
            makeSource: { variant in (try makeRoot(variant), NoPageAbilities()) }
        )
    }

    private init(
        name: String, title: String, summary: String, variants: [String: [String]],
        resolveVariant: VariantResolver?, resolveVariantItems: VariantItemsResolver?,
        cellKinds: [CellKind], access: PageAccess, perViewer: Bool,
        isListed: Bool, countRows: RowCounter?,
        makeSource: @escaping @Sendable (PageVariant) throws -> (root: any TableRoot, abilities: any PageSource)
    ) {
        self.isListed = isListed
        self.perViewer = perViewer
        parts = Parts(
            name: name, title: title, summary: summary, variants: variants, resolveVariant: resolveVariant,
            resolveVariantItems: resolveVariantItems, makeSource: makeSource, cellKinds: cellKinds,
            access: access, countRows: countRows
        )
    }

    /// A table over `root` as this page shows it: titled, knowing the page's cell kinds, at `version`.
    func makeTable(root: any TableRoot, version: Int = 0) -> TableAdapter {
        configured(TableAdapter(root: root, version: version))
    }

    /// A table of this page for one render of `root` (a page of rows, a row's own URL), not kept:
    /// see ``/TableKit/TableAdapter/init(renderingOnce:)``.
    func makeRenderedOnceTable(root: any TableRoot) -> TableAdapter {
        configured(TableAdapter(renderingOnce: root))
    }

    private func configured(_ table: TableAdapter) -> TableAdapter {
        table.title = title
        for kind in cellKinds { table.register(kind) }
        return table
    }

    /// The variant a request's query selects, for `viewer` when the page is ``perViewer`` (ignored
    /// otherwise), or a message saying which value is not allowed; `items` is the query as sent,
    /// for ``resolveVariantItems`` (`query`'s pairs when nil).
    func variant(for query: [String: String], items: [(name: String, value: String)]? = nil, viewer: Actor? = nil) -> Result<PageVariant, VariantError> {
        var chosen: [String: String] = [:]
        for (parameter, allowed) in variants {
            guard let value = query[parameter] else {
                chosen[parameter] = allowed[0]
                continue
            }
            guard allowed.contains(value) else {
                return .failure(VariantError(message: "\(parameter) must be one of \(allowed.joined(separator: ", ")); got '\(value)'."))
            }
            chosen[parameter] = value
        }
        if let resolveVariantItems {
            do {
                chosen.merge(try resolveVariantItems(items ?? query.map { (name: $0.key, value: $0.value) })) { fixed, _ in fixed }
            } catch {
                return .failure(error)
            }
        } else if let resolveVariant {
            do {
                chosen.merge(try resolveVariant(query)) { fixed, _ in fixed }
            } catch {
                return .failure(error)
            }
        }
        return .success(PageVariant(page: name, parameters: chosen, defaults: parts.variantDefaults, viewer: perViewer ? viewer : nil))
    }

    /// A query value outside a page's declared variants, with a message for the client.
    public struct VariantError: Error {
        /// Says what is wrong and what is allowed; sent with status 400.
        public let message: String

        /// Creates an error with the message the client sees.
        public init(message: String) {
            self.message = message
        }
    }
}
