import TablePages

/// Visitors' SQL over one database, as one ``/TablePages/SiteFeature``: the SQL page and the
/// canned queries' pages (``QueryPages``), their live pages (``LiveQueryPages``), their links on
/// the index, and, with a ``DatasetteAPI``, Datasette's URLs over the same database, whose canned
/// queries and `?sql=` this SQL page answers.
///
///     let runner = try QueryPages.sqliteRunner(path: "shop.db", limits: QueryLimits())
///     let sql = SQLPage(runner: runner, access: .anyone, onChange: { heard in store.onChange { heard(.unknown) } })
///     let site = Site(title: "Shop", features: [tables, sql])
public struct SQLPage: SiteFeature {
    /// Runs the visitors' SQL and the canned queries.
    public let runner: any QueryRunner
    /// Who may run SQL of their own.
    public var access: QueryAccess
    /// The canned queries, each a page of its own and a live page.
    public var canned: [CannedQuery]
    /// The most queries of the SQL page live at once, and parameter values of each canned query's live page.
    public var maxLiveQueries: Int
    /// Datasette's URLs over the same database, or nil for none.
    public var datasette: DatasetteAPI?
    /// Tells the live pages which tables changed.
    private let onChange: @Sendable (@escaping @Sendable (ChangedTables) -> Void) -> Void

    /// The SQL page over `runner`, with live pages that re-run on what `onChange` reports.
    public init(
        runner: any QueryRunner, access: QueryAccess = .anyone, canned: [CannedQuery] = [], maxLiveQueries: Int = LiveQueryPages.defaultMaxSQLQueries,
        datasette: DatasetteAPI? = nil, onChange: @escaping @Sendable (@escaping @Sendable (ChangedTables) -> Void) -> Void
    ) {
        self.runner = runner
        self.access = access
        self.canned = canned
        self.maxLiveQueries = maxLiveQueries
        self.datasette = datasette
        self.onChange = onChange
    }

    /// Adds the live pages, the index's links, and the routes: Datasette's first, then the SQL page's.
    public func add(to site: inout SiteBuilder) {
        LiveQueryPages.register(canned, runner: runner, maxVariants: maxLiveQueries, onChange: onChange, in: &site.pages)
        LiveQueryPages.registerSQL(runner: runner, access: access, maxQueries: maxLiveQueries, onChange: onChange, in: &site.pages)
        site.entries += QueryPages.indexEntries(access: access, canned: canned)
        var queries = QueryPages(
            runner: runner, databaseName: datasette?.databaseName ?? "", access: access, canned: canned,
            siteTitle: site.title, accessControl: site.access, logger: site.logger
        )
        queries.linksLivePages = true
        var datasette = datasette
        datasette?.cannedQueries = queries
        datasette?.accessControl = site.access
        site.addRoutes { [datasette, queries] router in
            datasette?.register(on: &router)
            queries.register(on: &router, datasette: datasette != nil)
        }
    }
}
