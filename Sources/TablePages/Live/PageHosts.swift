import Logging
import Synchronization

/// The live hosts, one per page variant, made on first use, and the render cache they share.
///
/// Bounded three ways: at most ``LiveSettings/maxVariantsPerPage`` per page, and
/// ``LiveSettings/maxLiveVariants`` and ``LiveSettings/liveVariantsByteLimit`` (estimated, see
/// ``TableMemoryEstimate``) for the process. Making a variant past a bound drops the least
/// recently used ones nobody subscribes to; subscribed ones are kept but count.
final class PageHosts: Sendable {
    let registry: PageRegistry
    let settings: LiveSettings
    /// Rendered pages of every variant, within one budget.
    let renderCache: RenderCache
    private let state = Mutex(State())

    let logger: Logger

    private struct Entry {
        let host: PageHost
        var lastUse: UInt64
    }

    private struct State {
        var hosts: [PageVariant: Entry] = [:]
        // Increases with every lookup; orders hosts by last use without reading a clock.
        var uses: UInt64 = 0

        mutating func use(_ variant: PageVariant) -> PageHost? {
            uses += 1
            hosts[variant]?.lastUse = uses
            return hosts[variant]?.host
        }
    }

    init(registry: PageRegistry, settings: LiveSettings, logger: Logger) {
        self.registry = registry
        self.settings = settings
        self.logger = logger
        renderCache = RenderCache(byteLimit: settings.renderCacheByteLimit)
    }

    /// The host of `variant` if it exists, without making one (for paths that must not block).
    func existingHost(for variant: PageVariant) -> PageHost? {
        state.withLock { $0.use(variant) }
    }

    /// The hosts made so far.
    var all: [PageHost] { state.withLock { $0.hosts.values.map(\.host) } }

    /// Estimated bytes all hosts hold now.
    var estimatedByteCount: Int { state.withLock { $0.hosts.values.reduce(0) { $0 + $1.host.estimatedByteCount } } }

    /// The host of `variant`, creating its table on first use.
    func host(for variant: PageVariant, definition: PageDefinition) throws -> PageHost {
        if let host = state.withLock({ $0.use(variant) }) { return host }
        // Built outside the lock: a page's factory may be slow (it may read a database).
        let made = try PageHost(definition: definition, variant: variant, settings: settings, logger: logger)
        let (host, dropped) = state.withLock { state -> (PageHost, [PageVariant]) in
            if let existing = state.use(variant) { return (existing, []) }
            let dropped = evictUnwatched(toMake: made, from: &state)
            state.uses += 1
            state.hosts[variant] = Entry(host: made, lastUse: state.uses)
            return (made, dropped)
        }
        // Outside the lock: the cache has its own, and lookups on the event threads take both.
        for variant in dropped { renderCache.removeAll(of: variant) }
        return host
    }

    /// Drops the least recently used hosts without subscribers until `made` fits: fewer than
    /// ``LiveSettings/maxVariantsPerPage`` of its page, fewer than ``LiveSettings/maxLiveVariants``
    /// in all, and room for its estimated bytes within ``LiveSettings/liveVariantsByteLimit``.
    /// A dropped host's table is freed once the requests using it finish; a client that comes back
    /// gets a fresh table, and one that reconnects with an old event id a `reset`.
    private func evictUnwatched(toMake made: PageHost, from state: inout State) -> [PageVariant] {
        let page = made.variant.page
        var ofPage = 0
        var bytes = made.estimatedByteCount
        for (variant, entry) in state.hosts {
            if variant.page == page { ofPage += 1 }
            bytes += entry.host.estimatedByteCount
        }
        var count = state.hosts.count
        var overProcess: Bool { count >= settings.maxLiveVariants || bytes > settings.liveVariantsByteLimit }
        guard overProcess || ofPage >= settings.maxVariantsPerPage else { return [] }
        let unwatched = state.hosts.filter { $0.value.host.channel.subscriberCount == 0 }
            .sorted { $0.value.lastUse < $1.value.lastUse }
        var dropped: [PageVariant] = []
        for (variant, entry) in unwatched {
            guard overProcess || ofPage >= settings.maxVariantsPerPage else { break }
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
