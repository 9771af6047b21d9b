import Logging
import MicroHTTP
import Synchronization

/// The live hosts, one per page variant, made on first use, and the render cache they share.
///
/// Bounded three ways: at most ``LiveSettings/maxVariantsPerPage`` per page, and
/// ``LiveSettings/maxLiveVariants`` and ``LiveSettings/liveVariantsByteLimit`` (estimated, see
/// ``TableMemoryEstimate``) for the process. Making a variant past a bound drops the least
/// recently used ones nobody subscribes to; subscribed ones are kept but count. A page with its
/// own bound (``PageDefinition/maxVariants``) is answered 503 past it when every variant is watched.
final class PageHosts: Sendable {
    /// The site's pages, as they are now.
    let pages: SitePages
    var registry: PageRegistry { pages.registry }
    let settings: LiveSettings
    /// Rendered pages of every variant, within one budget.
    let renderCache: RenderCache
    /// Where hosts run: the cap on concurrent database work.
    let lanes: DatabaseLanes
    /// Where hosts of pages that ``PageDefinition/runsOnQueryLane`` run: one lane, since their
    /// queries share one connection anyway, with a queue of its own.
    let queryLanes: DatabaseLanes
    /// Where pages of rows from a deep position (`?_at=N`) are read, one at a time.
    let positionalLanes: DatabaseLanes
    /// The live queries each client watches (``LiveSettings/maxWatchedQueriesPerClient``).
    let watchLimit: ClientWatchLimit
    private let state = Mutex(State())

    let logger: Logger
    /// Where the live machinery is counted; nil when nothing is.
    let metrics: LiveMetrics?

    private struct Entry {
        let host: PageHost
        var lastUse: UInt64
        var lastUsedAt = ContinuousClock.now
    }

    private struct State {
        var hosts: [PageVariant: Entry] = [:]
        // Hosts whose factory is running: requests for the same new variant wait for one build.
        var building: [PageVariant: Task<PageHost, any Error>] = [:]
        // How many times each page's definition was replaced (`drop(page:)`): a host built from
        // the definition before is served to the requests that waited for it, never kept.
        var replacements: [String: Int] = [:]
        // Increases with every lookup; orders hosts by last use without reading a clock.
        var uses: UInt64 = 0

        mutating func use(_ variant: PageVariant) -> PageHost? {
            guard let index = hosts.index(forKey: variant) else { return nil }
            uses += 1
            hosts.values[index].lastUse = uses
            hosts.values[index].lastUsedAt = .now
            return hosts.values[index].host
        }
    }

    init(pages: SitePages, settings: LiveSettings, logger: Logger, metrics: LiveMetrics? = nil) {
        self.pages = pages
        self.settings = settings
        self.logger = logger
        self.metrics = metrics
        renderCache = RenderCache(byteLimit: settings.renderCacheByteLimit)
        lanes = DatabaseLanes(count: settings.databaseConcurrency, queueLimit: settings.databaseQueueLimit)
        queryLanes = DatabaseLanes(count: 1, name: "query-lane", queueLimit: settings.queryLaneQueueLimit)
        positionalLanes = DatabaseLanes(count: 1, name: "positional-lane", queueLimit: settings.positionalQueueLimit)
        watchLimit = ClientWatchLimit(perClient: settings.maxWatchedQueriesPerClient)
        pages.onReplace { [weak self] page in self?.drop(page: page) }
        // Ends once the hosts are gone: it holds them only while it sweeps.
        Task { [weak self] in
            while let lifetime = self?.settings.unwatchedQueryLifetime {
                try? await Task.sleep(for: lifetime / 2)
                self?.dropUnwatchedQueries()
            }
        }
    }

    /// Drops the variants of pages that run on the query lane nobody has watched or asked for in
    /// ``LiveSettings/unwatchedQueryLifetime`` before `now`, so a visitor's query is not kept (and
    /// its table held) once its page is closed; a client that comes back runs it again. Returns
    /// the variants dropped.
    @discardableResult
    func dropUnwatchedQueries(now: ContinuousClock.Instant = .now) -> [PageVariant] {
        let lifetime = settings.unwatchedQueryLifetime
        // The registry as it is now, read once (each read takes the pages' lock and copies it).
        let registry = registry
        let dropped = state.withLock { state in
            let idle = state.hosts.filter { variant, entry in
                registry.page(named: variant.page)?.runsOnQueryLane == true
                    && entry.host.channel.subscriberCount == 0 && now - entry.lastUsedAt >= lifetime
            }
            for variant in idle.keys { state.hosts[variant] = nil }
            return Array(idle.keys)
        }
        for variant in dropped { renderCache.removeAll(of: variant) }
        return dropped
    }

    /// Drops every variant of `page` (its definition was replaced: a table's new columns) and
    /// sends each of their subscribers `reset`, so browsers fetch the page again from the new
    /// definition. Returns the variants dropped.
    @discardableResult
    func drop(page: String) -> [PageVariant] {
        let dropped = state.withLock { state in
            let gone = state.hosts.filter { $0.key.page == page }
            for variant in gone.keys { state.hosts[variant] = nil }
            // Builds under way read the old definition: the next request starts its own.
            state.replacements[page, default: 0] += 1
            for variant in state.building.keys where variant.page == page { state.building[variant] = nil }
            return gone
        }
        for (variant, entry) in dropped {
            renderCache.removeAll(of: variant)
            entry.host.channel.resetAll()
        }
        return Array(dropped.keys)
    }

    /// The lanes that read a page of rows from `position` (counted from 0) away from its host:
    /// ``positionalLanes`` past the first row, where the read may step over every row before it,
    /// ``lanes`` otherwise (a first page, or one after a row, which an index finds).
    func lanes(readingFrom position: Int?) -> DatabaseLanes {
        (position ?? 0) > 0 ? positionalLanes : lanes
    }

    /// Counts `stream` as `client` (a `Request.clientKey`) watching `host`'s variant, until it ends, when `definition`
    /// runs on the query lane (a live query's re-runs are what a watcher costs).
    /// - Throws: 429 past ``LiveSettings/maxWatchedQueriesPerClient``.
    func admitWatcher(_ stream: EventStream, of host: PageHost, definition: PageDefinition, client: String?) throws(HTTPError) {
        guard definition.runsOnQueryLane else { return }
        try watchLimit.admit(host.variant, client: client, until: stream)
    }

    /// The host of `variant` if it exists, without making one (for paths that must not block).
    func existingHost(for variant: PageVariant) -> PageHost? {
        state.withLock { $0.use(variant) }
    }

    /// The hosts made so far.
    var all: [PageHost] { state.withLock { $0.hosts.values.map(\.host) } }

    /// Estimated bytes all hosts hold now.
    var estimatedByteCount: Int { state.withLock { $0.hosts.values.reduce(0) { $0 + $1.host.estimatedByteCount } } }

    /// The host of `variant`, creating its table on first use, on the least busy lane; requests
    /// for a variant being made wait for that one build instead of starting their own.
    /// - Throws: ``/MicroHTTP/HTTPError`` 503 when that lane is too busy, or the factory's error.
    func host(for variant: PageVariant, definition: PageDefinition) async throws -> PageHost {
        if let host = state.withLock({ $0.use(variant) }) { return host }
        let build: Task<PageHost, any Error> = try state.withLock { state throws(HTTPError) in
            // Made meanwhile: rare enough that wrapping it in a task costs nothing that matters.
            if let host = state.use(variant) { return Task { host } }
            if let build = state.building[variant] { return build }
            if let bound = definition.maxVariants {
                // Past the bound with nothing to drop: a watched variant is never dropped.
                let kept = state.hosts.count(where: { $0.key.page == variant.page && $0.value.host.channel.subscriberCount > 0 })
                if kept + state.building.count(where: { $0.key.page == variant.page }) >= bound {
                    throw HTTPError(
                        503, "The page \u{201C}\(variant.page)\u{201D} already has \(bound) variants live, each watched: try again later.",
                        headers: ["Retry-After": "5"]
                    )
                }
            }
            let pool = definition.runsOnQueryLane ? queryLanes : lanes
            let lane = pool.leastBusy()
            try pool.admit(lane)
            let replacement = state.replacements[variant.page, default: 0]
            let build = Task { try await self.build(variant, definition: definition, on: lane, replacement: replacement) }
            state.building[variant] = build
            return build
        }
        return try await build.value
    }

    /// Makes the host of `variant` on `lane` (its factory may be slow: it may read a database) and
    /// keeps it.
    private func build(_ variant: PageVariant, definition: PageDefinition, on lane: DatabaseLane, replacement: Int) async throws -> PageHost {
        let (settings, logger, metrics) = (settings, logger, metrics)
        let made: Result<PageHost, any Error>
        do {
            made = .success(try await lane.run {
                try PageHost(definition: definition, variant: variant, lane: lane, settings: settings, logger: logger, metrics: metrics)
            })
        } catch {
            made = .failure(error)
        }
        let (host, dropped) = try state.withLock { state -> (PageHost, [PageVariant]) in
            let current = state.replacements[variant.page, default: 0] == replacement
            // A build of the new definition may be under way for the same variant: it is not this one's to end.
            if current { state.building[variant] = nil }
            let host = try made.get()
            guard current else { return (host, []) }
            let dropped = evictUnwatched(toMake: host, pageBound: definition.maxVariants ?? settings.maxVariantsPerPage, from: &state)
            state.uses += 1
            state.hosts[variant] = Entry(host: host, lastUse: state.uses)
            return (host, dropped)
        }
        // Outside the lock: the cache has its own, and lookups on the event threads take both.
        for variant in dropped { renderCache.removeAll(of: variant) }
        return host
    }

    /// Drops the least recently used hosts without subscribers until `made` fits: fewer than
    /// `pageBound` of its page (``PageDefinition/maxVariants`` or ``LiveSettings/maxVariantsPerPage``), fewer than ``LiveSettings/maxLiveVariants``
    /// in all, and room for its estimated bytes within ``LiveSettings/liveVariantsByteLimit``.
    /// A dropped host's table is freed once the requests using it finish; a client that comes back
    /// gets a fresh table, and one that reconnects with an old event id a `reset`.
    private func evictUnwatched(toMake made: PageHost, pageBound: Int, from state: inout State) -> [PageVariant] {
        let page = made.variant.page
        var ofPage = 0
        var bytes = made.estimatedByteCount
        for (variant, entry) in state.hosts {
            if variant.page == page { ofPage += 1 }
            bytes += entry.host.estimatedByteCount
        }
        var count = state.hosts.count
        var overProcess: Bool { count >= settings.maxLiveVariants || bytes > settings.liveVariantsByteLimit }
        guard overProcess || ofPage >= pageBound else { return [] }
        let unwatched = state.hosts.filter { $0.value.host.channel.subscriberCount == 0 }
            .sorted { $0.value.lastUse < $1.value.lastUse }
        var dropped: [PageVariant] = []
        for (variant, entry) in unwatched {
            guard overProcess || ofPage >= pageBound else { break }
            // Over the per-page bound only: other pages' variants stay.
            if !overProcess, variant.page != page { continue }
            state.hosts[variant] = nil
            dropped.append(variant)
            count -= 1
            bytes -= entry.host.estimatedByteCount
            if variant.page == page { ofPage -= 1 }
        }
        if overProcess {
            logger.notice("live page variants are over their bounds (\(count + 1) variants, about \(bytes >> 20) MiB) because they have subscribers")
        }
        return dropped
    }
}
