import Synchronization

/// Finished response bodies of page variants, so a page nobody changed is not rendered again for
/// every request and can be answered on the event thread without waiting.
///
/// One cache serves the whole process within one budget in bytes; when a body does not fit, the
/// least recently used ones go. Every body carries the ``Stamp`` of the table state it was rendered
/// from and is served only while that is still its variant's current stamp, so neither a patch
/// published meanwhile nor a re-read that changed no version can ever be answered with older bytes.
final class RenderCache: Sendable {
    /// What was rendered: the variant, the format, the per-section row limit, and how the viewer
    /// sees the page (with or without action controls, signed in or not).
    struct Key: Hashable, Sendable {
        let variant: PageVariant
        let json: Bool
        let limit: Int?
        let view: PageDocument.View

        init(variant: PageVariant, json: Bool, limit: Int?, view: PageDocument.View) {
            self.variant = variant
            self.json = json
            self.limit = limit
            // JSON is the same for every viewer of a variant: one entry serves them all.
            self.view = json ? .jsonView : view
        }
    }

    /// The table state a body shows: the table's version, and the generation of its host's data
    /// (which changes, unique in the process, whenever the host re-reads data without a new version,
    /// and differs between two hosts of one variant).
    struct Stamp: Hashable, Sendable {
        let version: Int
        let generation: UInt64
    }

    /// Bytes an entry costs besides its body: the key, the stamp and the bookkeeping.
    static let entryOverhead = 160

    /// The most bytes of bodies (and their bookkeeping) kept at once.
    let byteLimit: Int
    private let state: Mutex<RenderCacheEntries>

    // Generations are unique across hosts, so a body from a dropped host can never match its successor.
    private static let generations = Atomic<UInt64>(0)

    /// A generation no host has had before.
    static func newGeneration() -> UInt64 {
        generations.add(1, ordering: .relaxed).newValue
    }

    /// A cache keeping at most `byteLimit` bytes (nothing when it is 0).
    init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
        state = Mutex(RenderCacheEntries())
    }

    /// The body stored for `key` if it was rendered at `stamp`; a hit becomes the most recently used.
    func body(for key: Key, stamp: Stamp) -> [UInt8]? {
        state.withLock { $0.body(for: key, stamp: stamp) }
    }

    /// Stores a body rendered at `stamp`. A body from an older stamp than one already stored for the
    /// variant is ignored; one from a newer stamp drops the variant's older bodies. A body larger
    /// than a quarter of the budget is not kept, so one huge page cannot flush everything else.
    func store(_ body: [UInt8], for key: Key, stamp: Stamp) {
        let cost = body.count + Self.entryOverhead
        guard cost <= byteLimit / 4 else { return }
        state.withLock { $0.store(body, for: key, stamp: stamp, cost: cost, byteLimit: byteLimit) }
    }

    /// Forgets every body of `variant`, e.g. when its host is dropped.
    func removeAll(of variant: PageVariant) {
        state.withLock { $0.removeAll(of: variant) }
    }

    /// Bytes held now, bookkeeping included.
    var byteCount: Int { state.withLock { $0.bytes } }

    /// Bodies held now.
    var count: Int { state.withLock { $0.slots.count - $0.free.count } }
}
