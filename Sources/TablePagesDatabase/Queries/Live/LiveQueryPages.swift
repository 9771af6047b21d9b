import MicroHTTP
import TableKit
import TablePages

/// Canned queries as live pages: each at `/pages/{name}` of ``pageName(of:)`` (`queries/{name}`,
/// tilde-encoded in the URL), one variant per set of parameter values (`?city=Paris`), re-run when
/// `onChange` says a table it reads changed (``ChangedTables``; any change when the store cannot
/// tell which tables, or the runner which it reads), at most once per ``throttle`` per variant, and only while
/// someone watches the page's variant (``/TablePages/PageDefinition/rereadsOnlyWhileWatched``: a
/// variant kept unwatched re-runs when it is next shown or watched); each
/// re-run publishes only the rows that changed (`QueryRowIdentity`), with the same replay and
/// reset as every page. Each runs on the query lane (``/TablePages/PageDefinition/runsOnQueryLane``),
/// never on the lanes table pages need while it waits for the runner's connection. Unlisted: the index links to each query's form (``QueryPages``), which
/// links here.
///
///     LiveQueryPages.register(configuration.queries, runner: runner, onChange: postgresTables.onChange, in: &pages)
///     LiveQueryPages.register(configuration.queries, runner: runner, onChange: { heard in store.onChange { heard(.unknown) } }, in: &pages)
public enum LiveQueryPages {
    /// The shortest time between two re-runs of one query.
    public static let throttle = Duration.milliseconds(250)

    /// The name of the live page of the query named `name`.
    public static func pageName(of name: String) -> String { "queries/" + name }

    /// Registers a live page per query of `queries`, run by `runner`, re-run after each change
    /// `onChange` reports that touches a table the query reads. At most `maxVariants` sets of
    /// parameter values of one query are live at once, as ``registerSQL(runner:access:maxQueries:onChange:in:)``'s
    /// queries: a new one drops the least recently used that nobody watches, and is answered 503
    /// when each is watched.
    public static func register(
        _ queries: [CannedQuery], runner: any QueryRunner, maxVariants: Int = defaultMaxSQLQueries,
        onChange: (@escaping @Sendable (ChangedTables) -> Void) -> Void, in registry: inout PageRegistry
    ) {
        let router = TableChangeRouter(interval: throttle)
        onChange { router.notify($0) }
        for query in queries {
            let names = SQLParameterNames.names(in: query.sql)
            var definition = PageDefinition(
                name: pageName(of: query.name),
                title: query.title,
                summary: query.description ?? "",
                resolveVariantItems: { items throws(PageDefinition.VariantError) in
                    // The variant is the values of the query's parameters; others are not its.
                    var values: [String: String] = [:]
                    for item in items where names.contains(item.name) && values[item.name] == nil { values[item.name] = item.value }
                    return values
                },
                cellKinds: [DatabaseRecordCell.kind, QueryResultHeader.kind],
                access: .everyoneReads,
                isListed: false
            ) { variant in
                let parameters = names.map { ($0, variant.parameters[$0] ?? "") }
                let values = DatasetteAPI.formEncoded(parameters)
                return QueryResultSource(
                    runner: runner, query: query, parameters: parameters,
                    form: (QueryPages.cannedPath(of: query.name) + (values.isEmpty ? "" : "?" + values), "Change the parameters"),
                    watch: router.watch()
                )
            }
            definition.maxVariants = maxVariants
            definition.rereadsOnlyWhileWatched = true
            definition.runsOnQueryLane = true
            registry.register(definition)
        }
    }

    /// The default of ``registerSQL(runner:access:maxQueries:onChange:in:)``'s bound: visitors' queries live at once.
    public static let defaultMaxSQLQueries = 8

    /// The live page of visitors' SQL: `/pages/-~2Fsql?sql=…&name=…`, the SQL page's "Watch live".
    public static let sqlPageName = "-/sql"

    /// The path of the live page of `sql` run with `parameters` (the values of its named parameters).
    public static func sqlPagePath(sql: String, parameters: [(name: String, value: String)]) -> String {
        PageContract.pagePath(named: sqlPageName) + "?" + DatasetteAPI.formEncoded([(name: "sql", value: sql)] + parameters)
    }

    /// Registers the live page of visitors' SQL (``sqlPageName``): each distinct SQL and parameter
    /// values a variant, run by `runner` under its limits and re-run after each change `onChange`
    /// reports that touches a table it reads, at most once per ``throttle``, as the canned queries' pages. Whoever `access`
    /// refuses the SQL page is refused here too: 403 for everyone when it is
    /// ``QueryAccess/off``, 401 for anonymous clients when it is ``QueryAccess/signedIn``. At most
    /// `maxQueries` queries are live at once: a new one drops the least recently used that nobody
    /// watches, and is answered 503 when each is watched. A query nobody watches is not re-run
    /// until it is next shown or watched.
    public static func registerSQL(
        runner: any QueryRunner, access: QueryAccess, maxQueries: Int = defaultMaxSQLQueries,
        onChange: (@escaping @Sendable (ChangedTables) -> Void) -> Void, in registry: inout PageRegistry
    ) {
        let router = TableChangeRouter(interval: throttle)
        onChange { router.notify($0) }
        var definition = PageDefinition(
            name: sqlPageName,
            title: "SQL",
            summary: "",
            resolveVariantItems: { items throws(PageDefinition.VariantError) in
                guard let sql = items.first(where: { $0.name == "sql" })?.value, !sql.allSatisfy(\.isWhitespace) else {
                    throw PageDefinition.VariantError(message: "Give the SQL to run as ?sql=SELECT…")
                }
                // The variant is the SQL and the values of its parameters; other items are not its.
                var values = ["sql": sql]
                let names = Set(SQLParameterNames.names(in: sql))
                for item in items where item.name != "sql" && names.contains(item.name) && values[item.name] == nil { values[item.name] = item.value }
                return values
            },
            cellKinds: [DatabaseRecordCell.kind, QueryResultHeader.kind],
            access: access == .signedIn ? PageAccess(read: { $0 != nil }, write: { _ in false }) : .everyoneReads,
            isListed: false
        ) { variant in
            if access == .off, let refusal = access.refusal(signedIn: false) { throw HTTPError(403, refusal) }
            let sql = variant.parameters["sql"] ?? ""
            let parameters = SQLParameterNames.names(in: sql).map { ($0, variant.parameters[$0] ?? "") }
            return QueryResultSource(
                runner: runner, query: CannedQuery(name: sqlPageName, title: "SQL", sql: sql), parameters: parameters,
                form: (QueryPages.path + "?" + DatasetteAPI.formEncoded([(name: "sql", value: sql)] + parameters), "Edit the SQL"),
                watch: router.watch()
            )
        }
        definition.maxVariants = maxQueries
        definition.rereadsOnlyWhileWatched = true
        definition.runsOnQueryLane = true
        registry.register(definition)
    }
}
