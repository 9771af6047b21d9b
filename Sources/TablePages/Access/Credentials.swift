import Logging
import MicroHTTP
import Synchronization

/// The credentials in memory: the session secret and the tokens by hash, read from the
/// ``CredentialStore`` at start and then every refresh interval on a dispatch queue of its own
/// (the store blocks on I/O; event threads and Swift's cooperative pool must not). Another process
/// (`tablepages token revoke`, `tablepages secret rotate`) changes the store; within one interval
/// this notices, and closes the event streams of the actors that lost their credentials.
final class Credentials: Sendable {
    private struct Snapshot {
        var secret: SessionSecret
        var tokens: [String: Actor]
    }

    private let store: (any CredentialStore)?
    private let logger: Logger
    private let snapshot: Mutex<Snapshot>
    /// Open event streams by actor id, to close when that actor's credentials go.
    private let streams = Mutex<[String: [ObjectIdentifier: EventStream]]>([:])
    private let timer = Mutex<RepeatingTimer?>(nil)

    init(store: (any CredentialStore)?, refreshInterval: Duration, logger: Logger) {
        self.store = store
        self.logger = logger
        var initial = Snapshot(secret: .random(), tokens: [:])
        if let store {
            do {
                initial = try Self.read(store)
            } catch {
                logger.error("cannot read the credentials (sessions will not outlive this process until they can be read): \(error)")
            }
        }
        self.snapshot = Mutex(initial)
        if store != nil {
            let timer = RepeatingTimer(label: "tablepages.credentials", every: refreshInterval) { [weak self] in self?.refresh() }
            self.timer.withLock { $0 = timer }
        }
    }

    deinit {
        timer.withLock { $0?.cancel() }
    }

    var secret: SessionSecret { snapshot.withLock { $0.secret } }

    /// The actor of `token`, when it is a token the store holds.
    func actor(forToken token: String) -> Actor? {
        // Hashing first keeps the lookup constant-time in the token: no early exit on a prefix.
        let hash = AccessTokens.hash(token)
        return snapshot.withLock { $0.tokens[hash] }
    }

    func watch(_ stream: EventStream, for actor: Actor) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[actor.id, default: [:]][key] = stream }
        stream.onTermination { [weak self] in
            self?.streams.withLock { streams in
                streams[actor.id]?[key] = nil
                if streams[actor.id]?.isEmpty == true { streams[actor.id] = nil }
            }
        }
    }

    /// Reads the store again; closes the streams of revoked tokens, and of every session when the
    /// secret changed. Blocks on the store: call it off the event threads.
    func refresh() {
        guard let store else { return }
        let fresh: Snapshot
        do {
            fresh = try Self.read(store)
        } catch {
            logger.warning("cannot re-read the credentials; keeping the ones read before: \(error)")
            return
        }
        let old = snapshot.withLock { snapshot in
            defer { snapshot = fresh }
            return snapshot
        }
        let remainingTokens = Set(fresh.tokens.values.map(\.id))
        let secretChanged = old.secret != fresh.secret
        if secretChanged { logger.notice("the session secret changed: every browser is signed out") }
        let closing = streams.withLock { streams in
            let gone = streams.keys.filter { id in
                id.hasPrefix(Actor.sessionPrefix) ? secretChanged : !remainingTokens.contains(id)
            }
            return gone.flatMap { streams.removeValue(forKey: $0)?.values.map { $0 } ?? [] }
        }
        for stream in closing { stream.finish() }
    }

    private static func read(_ store: any CredentialStore) throws -> Snapshot {
        let secret = SessionSecret(bytes: try store.sessionSecret())
        var tokens: [String: Actor] = [:]
        for token in try store.tokens() { tokens[token.hash] = token.actor }
        return Snapshot(secret: secret, tokens: tokens)
    }
}
