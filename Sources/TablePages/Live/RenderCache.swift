import Synchronization

/// Finished response bodies of one page variant at one version, so a page nobody changed is not
/// rendered again for every request, and can be answered on the event thread without waiting.
///
/// Entries carry the version they were rendered at and are served only while it is still the
/// variant's latest, so a patch published meanwhile can never be answered with older bytes.
final class RenderCache: Sendable {
    /// What was rendered: the format and the per-section row limit.
    struct Key: Hashable, Sendable {
        let json: Bool
        let limit: Int?
    }

    private struct Entries {
        var version = Int.min
        var bodies: [Key: [UInt8]] = [:]
    }

    private let entries = Mutex(Entries())

    /// The body stored for `key` if it was rendered at `version`.
    func body(for key: Key, version: Int) -> [UInt8]? {
        entries.withLock { $0.version == version ? $0.bodies[key] : nil }
    }

    /// Forgets every body, for a change that did not make a new version.
    func removeAll() {
        entries.withLock { $0 = Entries() }
    }

    /// Stores a body rendered at `version`; bodies of other versions are dropped.
    func store(_ body: [UInt8], for key: Key, version: Int) {
        entries.withLock { entries in
            if entries.version != version {
                // Only the newest version is worth keeping; a late store of an older one is ignored.
                guard version > entries.version else { return }
                entries = Entries(version: version)
            }
            entries.bodies[key] = body
        }
    }
}
