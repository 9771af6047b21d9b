import TableKit
import TablePages

/// Canned queries as live pages: each at `/pages/{name}` of ``pageName(of:)`` (`queries/{name}`,
/// tilde-encoded in the URL), one variant per set of parameter values (`?city=Paris`), re-run when
/// `onChange` says the database changed, at most once per ``throttle`` per query, and only while
/// the page's variant is live (someone watches it, or it is kept among the recently watched); each
/// re-run publishes only the rows that changed (`QueryRowIdentity`), with the same replay and
/// reset as every page. Unlisted: the index links to each query's form (``QueryPages``), which
/// links here.
///
///     LiveQueryPages.register(configuration.queries, runner: runner, onChange: store.onChange, in: &pages)
public enum LiveQueryPages {
    /// The shortest time between two re-runs of one query.
    public static let throttle = Duration.milliseconds(250)

    /// The name of the live page of the query named `name`.
    public static func pageName(of name: String) -> String { "queries/" + name }

    /// Registers a live page per query of `queries`, run by `runner`, re-run after each change
    /// `onChange` reports (a store's `onChange`).
    public static func register(
        _ queries: [CannedQuery], runner: any QueryRunner, onChange: (@escaping @Sendable () -> Void) -> Void, in registry: inout PageRegistry
    ) {
        for query in queries {
            let throttled = ThrottledFeed(interval: throttle)
            onChange { throttled.notify() }
            let names = SQLParameterNames.names(in: query.sql)
            registry.register(PageDefinition(
                name: pageName(of: query.name),
                title: query.title,
                summary: query.description ?? "",
                resolveVariantItems: { items throws(PageDefinition.VariantError) in
                    // The variant is the values of the query's parameters; others are not its.
                    var values: [String: String] = [:]
                    for item in items where names.contains(item.name) && values[item.name] == nil { values[item.name] = item.value }
                    return values
                },
                changes: throttled.feed,
                cellKinds: [DatabaseRecordCell.kind, QueryResultHeader.kind],
                access: .everyoneReads,
                isListed: false
            ) { variant in
                try QueryResultSource(runner: runner, query: query, parameters: names.map { ($0, variant.parameters[$0] ?? "") })
            })
        }
    }
}
