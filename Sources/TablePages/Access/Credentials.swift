import Foundation
import Logging
import MicroHTTP
import Synchronization

/// The credentials in memory: the session secret and the tokens by hash, read from the
/// ``CredentialStore`` at start and then every refresh interval on a dispatch queue of its own
/// (the store blocks on I/O; event threads and Swift's cooperative pool must not). Another process
/// (`tablepages token revoke`, `tablepages secret rotate`) changes the store; within one interval
/// this notices, and closes the event streams of the actors that lost their credentials. The same
/// timer closes the streams of sessions whose cookies expired.
///
/// Two things read or write the store on demand, on a queue of their own: a sign-in link's use is
/// recorded there (``claim(_:completion:)``), and a request whose access token is not known yet is
/// held back while the store is re-read (``recheck(forToken:)``), so a token works the moment
/// `tablepages token create` prints it.
final class Credentials: Sendable {
    private struct Snapshot {
        var secret: SessionSecret
        var tokens: [String: Actor]
        /// The ids of ``tokens``' actors, to tell a stream's token from one created again under its name.
        var tokenActorIDs: Set<String>
    }

    /// The open event streams of one actor, and when its credential expires by itself.
    private struct Watched {
        var streams: [ObjectIdentifier: EventStream] = [:]
        var expires: Date?
    }

    private let store: (any CredentialStore)?
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let snapshot: Mutex<Snapshot>
    /// Open event streams by actor id, to close when that actor's credentials go.
    private let streams = Mutex<[String: Watched]>([:])
    private let timer = Mutex<RepeatingTimer?>(nil)
    /// The sign-in links used, when there is no store to record them in.
    private let usedNonces = Mutex(UsedSignInNonces())
    /// Where claims and re-reads for unknown tokens run: the store blocks.
    private let queue = DispatchQueue(label: "tablepages.credentials-on-demand")
    /// One read of the store at a time, so an older read never replaces a newer one.
    private let reading = Mutex(())
    private let rechecks = Mutex(Rechecks())

    /// Requests waiting for a re-read of the store, and when the last one began.
    private struct Rechecks {
        var waiting: [@Sendable () -> Void] = []
        var scheduled = false
        var lastRead: ContinuousClock.Instant?
    }

    /// The least time between two re-reads for unknown tokens: a client sending made-up tokens
    /// costs the store at most this many reads a second, whatever its rate.
    static let recheckInterval: Duration = .milliseconds(50)
    /// Requests that may wait for one re-read; beyond them, an unknown token is refused at once.
    static let maxRecheckWaiting = 1024

    init(store: (any CredentialStore)?, refreshInterval: Duration, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.logger = logger
        self.now = now
        var initial = Snapshot(secret: .random(), tokens: [:], tokenActorIDs: [])
        if store == nil {
            logger.warning("no credential store keeps the session secret (AccessSettings.credentials is nil): a restart signs everyone out, and sign-in links end with this process")
        }
        if let store {
            do {
                initial = try Self.read(store)
            } catch {
                logger.error("cannot read the credentials (sessions will not outlive this process until they can be read): \(error)")
            }
        }
        self.snapshot = Mutex(initial)
        // Also without a store: sessions expire, and their streams must close then.
        let timer = RepeatingTimer(label: "tablepages.credentials", every: refreshInterval) { [weak self] in self?.refresh() }
        self.timer.withLock { $0 = timer }
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

    /// Records that `link` was used, on the credentials' queue (the store blocks), and calls
    /// `completion` there with true the first time, false when it was used before (here or by
    /// another process sharing the store), or the store's error.
    func claim(_ link: SignInLink, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        guard let store else {
            let now = now()
            completion(.success(usedNonces.withLock { $0.claim(link.nonce, expires: link.expiryDate, now: now) }))
            return
        }
        queue.async { [now] in
            completion(Result { try store.claimSignInNonce(link.nonce, expires: link.expiryDate, now: now()) })
        }
    }

    /// When `token` looks like an access token but is not one the credentials read last hold (it may
    /// have been created since): the wait for a re-read of the store, for ``Site``'s middleware.
    /// Re-reads are at least ``recheckInterval`` apart and shared by every request waiting; nil
    /// when there is nothing to wait for.
    func recheck(forToken token: String) -> (@Sendable (@escaping @Sendable () -> Void) -> Void)? {
        guard store != nil, token.hasPrefix(AccessTokens.prefix), actor(forToken: token) == nil else { return nil }
        return { [weak self] ready in
            guard let self else { return ready() }
            self.awaitRecheck(ready)
        }
    }

    private func awaitRecheck(_ ready: @escaping @Sendable () -> Void) {
        enum Plan { case full, joined, schedule(after: Duration) }
        let plan = rechecks.withLock { state -> Plan in
            guard state.waiting.count < Self.maxRecheckWaiting else { return .full }
            state.waiting.append(ready)
            guard !state.scheduled else { return .joined }
            state.scheduled = true
            let since = state.lastRead.map { ContinuousClock.now - $0 } ?? Self.recheckInterval
            return .schedule(after: max(.zero, Self.recheckInterval - since))
        }
        switch plan {
        // Not on the event thread that asked: it only hands the wait over.
        case .full: queue.async(execute: ready)
        case .joined: break
        case .schedule(let delay):
            let microseconds = Int(delay.components.seconds) * 1_000_000 + Int(delay.components.attoseconds / 1_000_000_000_000)
            queue.asyncAfter(deadline: .now() + .microseconds(microseconds)) { [weak self] in self?.runRecheck() }
        }
    }

    private func runRecheck() {
        // Taken before the read begins: every request in the list arrived before it, so the read
        // sees any token created before they were sent.
        let waiting = rechecks.withLock { state in
            defer { (state.waiting, state.scheduled, state.lastRead) = ([], false, .now) }
            return state.waiting
        }
        refresh()
        for ready in waiting { ready() }
    }

    /// Closes `stream` when `actor`'s credential goes: its token revoked, its session's secret
    /// rotated or its cookie expired. Closes it at once when that already happened, since the
    /// actor was looked up (a refresh in between has already swept the streams it knew).
    func watch(_ stream: EventStream, for actor: Actor) {
        let key = ObjectIdentifier(stream)
        streams.withLock { streams in
            streams[actor.id, default: Watched(expires: actor.expires)].streams[key] = stream
        }
        stream.onTermination { [weak self] in self?.forget(key, of: actor.id) }
        let gone = actor.sessionID == nil
            ? !snapshot.withLock { $0.tokenActorIDs.contains(actor.id) }
            : actor.expires.map { $0 <= now() } ?? false
        if gone {
            forget(key, of: actor.id)
            stream.finish()
        }
    }

    private func forget(_ key: ObjectIdentifier, of actorID: String) {
        streams.withLock { streams in
            streams[actorID]?.streams[key] = nil
            if streams[actorID]?.streams.isEmpty == true { streams[actorID] = nil }
        }
    }

    /// Reads the store again; closes the streams of revoked tokens, of every session when the
    /// secret changed, and of sessions that expired. Blocks on the store: call it off the event threads.
    func refresh() {
        reading.withLock { _ in refreshLocked() }
    }

    private func refreshLocked() {
        var secretChanged = false
        var remainingTokens: Set<String>?
        if let store {
            do {
                let fresh = try Self.read(store)
                let old = snapshot.withLock { snapshot in
                    defer { snapshot = fresh }
                    return snapshot
                }
                remainingTokens = fresh.tokenActorIDs
                secretChanged = old.secret != fresh.secret
                if secretChanged { logger.notice("the session secret changed: every browser is signed out") }
            } catch {
                logger.warning("cannot re-read the credentials; keeping the ones read before: \(error)")
            }
        }
        let now = now()
        let closing = streams.withLock { streams in
            let gone = streams.filter { id, watched in
                if id.hasPrefix(Actor.sessionPrefix) {
                    return secretChanged || watched.expires.map { $0 <= now } ?? false
                }
                return remainingTokens.map { !$0.contains(id) } ?? false
            }
            return gone.keys.flatMap { streams.removeValue(forKey: $0)?.streams.values.map { $0 } ?? [] }
        }
        for stream in closing { stream.finish() }
    }

    private static func read(_ store: any CredentialStore) throws -> Snapshot {
        let secret = SessionSecret(bytes: try store.sessionSecret())
        var tokens: [String: Actor] = [:]
        for token in try store.tokens() { tokens[token.hash] = token.actor }
        return Snapshot(secret: secret, tokens: tokens, tokenActorIDs: Set(tokens.values.map(\.id)))
    }
}
