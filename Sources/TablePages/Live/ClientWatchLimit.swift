import MicroHTTP
import Synchronization

/// Bounds the variants of costly pages (``PageDefinition/runsOnQueryLane``: each a query re-run
/// after every change while watched) that one client watches at once, so that one client cannot
/// hold every variant a page may keep (``PageDefinition/maxVariants``) and leave every other
/// visitor's "Watch live" refused.
///
/// A client is what `Request.clientKey` names: its address, and for IPv6 its address's /64 (one
/// host is given a whole /64, so counting its addresses apart would bound nothing). Streams of one
/// client on one variant count once: they cost one re-run.
///
///     try limit.admit(host.variant, client: request.clientKey, until: stream)
final class ClientWatchLimit: Sendable {
    /// Variants one client may watch at once.
    let perClient: Int
    // By client key: each variant watched, with the number of streams watching it.
    private let watched = Mutex<[String: [PageVariant: Int]]>([:])

    /// A limit of `perClient` variants per client (at least 1).
    init(perClient: Int) {
        self.perClient = max(1, perClient)
    }

    /// Counts `client` as watching `variant` until `stream` ends.
    /// - Throws: 429 with `Retry-After` when the client already watches ``perClient`` other variants.
    func admit(_ variant: PageVariant, client: String?, until stream: EventStream) throws(HTTPError) {
        let client = client ?? ""
        try watched.withLock { watched throws(HTTPError) in
            var variants = watched[client, default: [:]]
            guard variants[variant] != nil || variants.count < perClient else {
                throw HTTPError(
                    429, "You already watch \(perClient) live queries; close one (its tab or its \u{201C}Watch live\u{201D} page) to watch another.",
                    headers: ["Retry-After": "5"]
                )
            }
            variants[variant, default: 0] += 1
            watched[client] = variants
        }
        stream.onTermination { [weak self] in self?.release(variant, client: client) }
    }

    /// Variants `client` watches now.
    func watchedCount(of client: String) -> Int {
        watched.withLock { $0[client]?.count ?? 0 }
    }

    private func release(_ variant: PageVariant, client: String) {
        watched.withLock { watched in
            guard var variants = watched[client], let streams = variants[variant] else { return }
            variants[variant] = streams > 1 ? streams - 1 : nil
            watched[client] = variants.isEmpty ? nil : variants
        }
    }
}
