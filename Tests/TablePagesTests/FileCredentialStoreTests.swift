import Foundation
import HTTPTestSupport
import HostileTextSupport
import MicroHTTP
import PropertyBased
import Synchronization
@testable import TablePages
import Testing

/// A plain `Site` keeps its session secret across restarts (a ``FileCredentialStore`` in the
/// program's state folder), and says loudly when it cannot.
@Suite("File credential store")
struct FileCredentialStoreTests {
    static func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = NSTemporaryDirectory() + "tablepages-state-\(UUID().uuidString)/nested"
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        try body(directory)
    }

    static func mode(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test("A plain Site, restarted, still knows the browser its sign-in link signed in")
    func plainSiteKeepsSessionsAcrossARestart() async throws {
        #expect(FileCredentialStore.standard != nil, "this test needs a home folder")
        let site = AccessControlRoutesTests.site(AccessSettings())
        let token = String(site.access.makeSignInPath().dropFirst("/-/signin?token=".count))
        let signedIn = await site.router.respond(to: AccessControlRoutesTests.request(.get, "/-/signin", json: false, query: [("token", token)]))
        #expect(signedIn.status == 303)
        let setCookie = try #require(signedIn.headers["Set-Cookie"])
        let cookie = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))

        // The restart: a new Site from the same plain settings, as a new process would make.
        let restarted = AccessControlRoutesTests.site(AccessSettings())
        let session = try #require(SessionCookie.verify(cookie, secret: restarted.access.secret, lifetime: .seconds(60)))
        let write = AccessControlRoutesTests.request(
            .post, "/pages/items/rows/item-1/select", body: "{}",
            headers: ["X-CSRF-Token": restarted.access.secret.csrfToken(forSession: session.sessionID)], cookies: [SessionCookie.name: cookie]
        )
        #expect(restarted.access.actor(for: write)?.id.hasPrefix("session:") == true)
        #expect(await restarted.router.respond(to: write).status == 200)
        // The link was used once, before the restart; it does not sign in again after it.
        let again = await restarted.router.respond(to: AccessControlRoutesTests.request(.get, "/-/signin", json: false, query: [("token", token)]))
        #expect(again.status == 403 && again.headers["Set-Cookie"] == nil)
    }

    @Test("Without a credential store the site warns at startup that a restart signs everyone out; with one it does not")
    func noStoreIsAWarning() {
        let log = LogRecorder()
        _ = AccessControlRoutesTests.site(AccessSettings(credentials: nil), logger: log.logger())
        #expect(log.messages(at: .warning).contains { $0.contains("a restart signs everyone out") })
        let quiet = LogRecorder()
        _ = AccessControlRoutesTests.site(AccessSettings(), logger: quiet.logger())
        #expect(quiet.messages(at: .warning).isEmpty)
    }

    @Test("The secret outlives the store, in a 0600 file of a 0700 folder made when needed; rotating replaces it")
    func secretPersistsAndRotates() throws {
        try Self.withDirectory { directory in
            #expect(!FileManager.default.fileExists(atPath: directory))
            let first = try FileCredentialStore(directory: directory).sessionSecret()
            #expect(first.count == SessionSecret.byteCount)
            #expect(try Self.mode(directory) == 0o700)
            #expect(try Self.mode(directory + "/session-secret") == 0o600)
            #expect(try FileCredentialStore(directory: directory).sessionSecret() == first)
            let rotated = try FileCredentialStore(directory: directory).rotateSessionSecret()
            #expect(rotated != first)
            #expect(try FileCredentialStore(directory: directory).sessionSecret() == rotated)
            #expect(try Self.mode(directory + "/session-secret") == 0o600)
        }
    }

    @Test("A damaged secret file is an error naming it, not a new secret; tokens are refused in words")
    func damagedSecretAndTokens() throws {
        try Self.withDirectory { directory in
            let store = FileCredentialStore(directory: directory)
            _ = try store.sessionSecret()
            try Data("short".utf8).write(to: URL(fileURLWithPath: directory + "/session-secret"))
            let damaged = #expect(throws: FileCredentialStore.Failure.self) { try store.sessionSecret() }
            #expect(damaged?.description.contains(directory + "/session-secret") == true && damaged?.description.contains("5 bytes") == true)
            let token = StoredToken(name: "script", hash: AccessTokens.hash(AccessTokens.make()), mayWrite: true, pages: nil, created: Date())
            let refused = #expect(throws: FileCredentialStore.Failure.self) { try store.add(token) }
            #expect(refused?.description.contains("keeps no access tokens") == true)
            #expect(try store.tokens().isEmpty)
            #expect(try !store.revokeToken(named: "script"))
        }
    }

    @Test("A sign-in link is claimed once across stores sharing the folder, and expired records are dropped")
    func nonceClaimedOnce() throws {
        try Self.withDirectory { directory in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let one = FileCredentialStore(directory: directory), other = FileCredentialStore(directory: directory)
            #expect(try one.claimSignInNonce("n1", expires: now + 60, now: now))
            #expect(try !other.claimSignInNonce("n1", expires: now + 60, now: now))
            #expect(try other.claimSignInNonce("n2", expires: now + 10, now: now))
            #expect(try Self.mode(directory + "/used-sign-in-links") == 0o600)
            // Past n2's expiry its record goes; n1's stays.
            #expect(try one.claimSignInNonce("n3", expires: now + 120, now: now + 30))
            let file = UsedSignInNonces(fileContents: Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/used-sign-in-links"))))
            #expect(file.count == 2)
            #expect(try !one.claimSignInNonce("n1", expires: now + 60, now: now + 30))
        }
    }

    @Test("Concurrent claims of one link from many threads: exactly one wins")
    func concurrentClaims() throws {
        try Self.withDirectory { directory in
            let now = Date()
            let wins = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                if (try? FileCredentialStore(directory: directory).claimSignInNonce("shared", expires: now + 60, now: now)) == true {
                    wins.withLock { $0 += 1 }
                }
            }
            #expect(wins.withLock { $0 } == 1)
        }
    }

    @Test("The standard folder: XDG_STATE_HOME, else ~/.local/state, per program; none without an absolute HOME")
    func standardDirectory() {
        #expect(FileCredentialStore.standardDirectory(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/a"], program: "Shelf") == "/state/Shelf")
        #expect(FileCredentialStore.standardDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/a"], program: "Shelf") == "/home/a/.local/state/Shelf")
        #expect(FileCredentialStore.standardDirectory(environment: ["HOME": "/home/a"], program: "../x/y") == "/home/a/.local/state/.._x_y")
        #expect(FileCredentialStore.standardDirectory(environment: ["HOME": "/home/a"], program: "..") == "/home/a/.local/state/tablepages")
        #expect(FileCredentialStore.standardDirectory(environment: [:], program: "Shelf") == nil)
        #expect(FileCredentialStore.standardDirectory(environment: ["HOME": "home"], program: "Shelf") == nil)
    }

    @Test("Any nonce survives the used-links file: written, read back, still claimed")
    func anyNonceRoundTrips() async {
        await propertyCheckFailingOnThrow(input: HostileText.text.array(of: 1...4)) { nonces in
            var used = UsedSignInNonces()
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            for nonce in nonces { _ = used.claim(nonce, expires: now + 60, now: now) }
            var read = UsedSignInNonces(fileContents: used.fileContents)
            #expect(read.count == Set(nonces).count)
            for nonce in nonces {
                let claimedAgain = read.claim(nonce, expires: now + 60, now: now)
                #expect(!claimedAgain, "\(nonce) was in the file")
            }
        }
    }
}
