import Foundation
import MicroHTTP
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// A token works on its first request, though the server re-reads its credentials only every
/// refresh interval: an unknown token holds its request back for one shared, spaced re-read.
@Suite("New tokens work at once")
struct TokenRecheckTests {
    static func write(with token: String, on site: Site) async -> Int {
        await site.router.respond(to: AccessControlRoutesTests.request(
            .post, "/pages/items/rows/item-1/select", body: "{}", headers: ["Authorization": "Bearer " + token]
        )).status
    }

    @Test("A token created after the last read writes on its first request, five times over")
    func aNewTokenWorksAtOnce() async throws {
        let store = MemoryCredentialStore()
        // Never re-read by the timer during the test: only the recheck can make the token known.
        let site = AccessControlRoutesTests.site(AccessSettings(credentials: store, refreshInterval: .seconds(3600)))
        for attempt in 1...5 {
            let token = try AccessTokens.create(name: "new-\(attempt)", mayWrite: true, pages: nil, in: store)
            #expect(await Self.write(with: token, on: site) == 200, "attempt \(attempt)")
        }
        // A made-up token is still refused after its re-read.
        #expect(await Self.write(with: AccessTokens.make(), on: site) == 401)
    }

    @Test("A flood of made-up tokens costs a handful of store reads, not one each")
    func madeUpTokensAreRateLimited() async {
        let store = MemoryCredentialStore()
        let site = AccessControlRoutesTests.site(AccessSettings(credentials: store, refreshInterval: .seconds(3600)))
        let before = store.tokenReads
        let started = ContinuousClock.now
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<200 { group.addTask { await Self.write(with: AccessTokens.make(), on: site) } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - started
        #expect(statuses.allSatisfy { $0 == 401 })
        // At most one read per interval while they last, plus the first.
        let interval = Double(Credentials.recheckInterval.components.attoseconds) / 1e18
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(store.tokenReads - before <= Int(seconds / interval) + 2, "\(store.tokenReads - before) reads in \(seconds) s")
        // Text that is not a token at all never waits for the store.
        let reads = store.tokenReads
        #expect(await Self.write(with: "not-a-token", on: site) == 401)
        #expect(store.tokenReads == reads)
    }
}
