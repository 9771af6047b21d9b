import CoreMetrics

/// The counters of the live machinery: patches published and the bytes they cost, slow subscribers
/// dropped, reconnections replayed or reset, render cache lookups, and re-reads after changes (a
/// live query's re-run is one). Each is one atomic add.
struct LiveMetrics: Sendable {
    let patchesPublished: Counter
    let patchBytesSent: Counter
    let subscribersDropped: Counter
    let replays: Counter
    let resets: Counter
    let renderCacheHits: Counter
    let renderCacheMisses: Counter
    let rereads: Counter

    init(factory: any MetricsFactory) {
        patchesPublished = Counter(label: "tablepages_live_patches_published_total", dimensions: [], factory: factory)
        patchBytesSent = Counter(label: "tablepages_live_patch_bytes_sent_total", dimensions: [], factory: factory)
        subscribersDropped = Counter(label: "tablepages_live_subscribers_dropped_total", dimensions: [], factory: factory)
        replays = Counter(label: "tablepages_live_resumes_total", dimensions: [("outcome", "replay")], factory: factory)
        resets = Counter(label: "tablepages_live_resumes_total", dimensions: [("outcome", "reset")], factory: factory)
        renderCacheHits = Counter(label: "tablepages_render_cache_hits_total", dimensions: [], factory: factory)
        renderCacheMisses = Counter(label: "tablepages_render_cache_misses_total", dimensions: [], factory: factory)
        rereads = Counter(label: "tablepages_live_rereads_total", dimensions: [], factory: factory)
    }

    /// One patch was published, `bytes` of it written to subscribers in all, and `dropped`
    /// subscribers were sent `reset` instead for being too far behind.
    func published(bytesSent bytes: Int, dropped: Int) {
        patchesPublished.increment()
        if bytes > 0 { patchBytesSent.increment(by: bytes) }
        if dropped > 0 { subscribersDropped.increment(by: dropped) }
    }

    /// A subscriber that came back with an event id got the `bytes` of patches it missed (none
    /// when it was up to date).
    func replayed(bytes: Int) {
        replays.increment()
        if bytes > 0 { patchBytesSent.increment(by: bytes) }
    }
}
