import CoreMetrics

/// Gauges of the live state, read when `/metrics` is asked for rather than kept up to date on every
/// change: exact at each scrape, and free between scrapes.
struct LiveGauges: Sendable {
    let variants: Meter
    let variantBytes: Meter
    let subscribers: Meter
    let renderCacheBytes: Meter
    let renderCacheEntries: Meter

    init(factory: any MetricsFactory) {
        variants = Meter(label: "tablepages_live_variants", dimensions: [], factory: factory)
        variantBytes = Meter(label: "tablepages_live_variants_estimated_bytes", dimensions: [], factory: factory)
        subscribers = Meter(label: "tablepages_live_subscribers", dimensions: [], factory: factory)
        renderCacheBytes = Meter(label: "tablepages_render_cache_bytes", dimensions: [], factory: factory)
        renderCacheEntries = Meter(label: "tablepages_render_cache_entries", dimensions: [], factory: factory)
    }

    /// Sets every gauge from `hosts` as they are now.
    func read(_ hosts: PageHosts) {
        let all = hosts.all
        variants.set(all.count)
        variantBytes.set(all.reduce(0) { $0 + $1.estimatedByteCount })
        subscribers.set(all.reduce(0) { $0 + $1.channel.subscriberCount })
        renderCacheBytes.set(hosts.renderCache.byteCount)
        renderCacheEntries.set(hosts.renderCache.count)
    }
}
