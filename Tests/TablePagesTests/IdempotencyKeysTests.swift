import HTTPTestSupport
import HostileTextSupport
import MicroHTTP
import PropertyBased
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

@Suite("Idempotency keys")
struct IdempotencyKeysTests {
    static let json: [(String, String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]

    static func key(_ value: String, actor: String = "anonymous") -> IdempotencyKeys.ClientKey {
        IdempotencyKeys.ClientKey(actor: actor, path: "/pages/items/sections/items/rows", value: value)
    }

    @Test func anInsertSentAgainWithItsKeyIsAnsweredAsBeforeAndAddsNothing() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let headers = Self.json + [("Idempotency-Key", "2f1c9a70-milk")]
            let first = try await connection.request("POST", "/pages/items/sections/items/rows", headers: headers, body: Array(#"{"title":"Milk"}"#.utf8))
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            let again = try await connection.request("POST", "/pages/items/sections/items/rows", headers: headers, body: Array(#"{"title":"Milk"}"#.utf8))
            #expect(again.status == 201)
            #expect(again.text == first.text)
            #expect(again.header("Idempotent-Replayed") == "true")
            // Another key is another write.
            let other = try await connection.request("POST", "/pages/items/sections/items/rows", headers: Self.json + [("Idempotency-Key", "other")], body: Array(#"{"title":"Milk"}"#.utf8))
            #expect(other.status == 201)
            let page = try await connection.request("GET", "/pages/items.json").text
            #expect(page.components(separatedBy: #""title":"Milk""#).count - 1 == 2)
        }
    }

    @Test func aKeyThatCannotBeOneIsA400AndChangesNothing() async throws {
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let before = try await connection.request("GET", "/pages/items.json").text
            for bad in ["", String(repeating: "k", count: 256), "has space"] {
                let response = try await connection.request("POST", "/pages/items/sections/items/rows", headers: Self.json + [("Idempotency-Key", bad)], body: Array(#"{"title":"Milk"}"#.utf8))
                #expect(response.status == 400)
            }
            #expect(try await connection.request("GET", "/pages/items.json").text == before)
        }
    }

    @Test func aKeyInProgressIsRefusedAndOneWhoseWriteChangedNothingMayBeSentAgain() {
        let keys = IdempotencyKeys(byteLimit: 1 << 20)
        guard case .fresh = keys.begin(Self.key("a")) else { Issue.record("not fresh"); return }
        guard case .inProgress = keys.begin(Self.key("a")) else { Issue.record("not in progress"); return }
        // Another actor's key of the same text is theirs.
        guard case .fresh = keys.begin(Self.key("a", actor: "token:x")) else { Issue.record("shared between actors"); return }
        keys.finish(Self.key("a"), with: Response(status: 503))
        guard case .fresh = keys.begin(Self.key("a")) else { Issue.record("a 503 was kept"); return }
        keys.finish(Self.key("a"), with: Response(status: 500, body: Array("unknown".utf8)))
        guard case .answered(let kept) = keys.begin(Self.key("a")) else { Issue.record("a 500 was not kept"); return }
        #expect(kept.status == 500)
    }

    @Test func keptAnswersStayWithinTheirBytesAndExpire() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...400).array(of: 1...60)) { sizes in
            let limit = 4096
            let keys = IdempotencyKeys(byteLimit: limit, lifetime: .seconds(60))
            let start = ContinuousClock.now
            for (index, size) in sizes.enumerated() {
                let key = Self.key("k\(index)")
                _ = keys.begin(key, now: start)
                keys.finish(key, with: Response(status: 201, body: Array(repeating: 1, count: size)), now: start)
                #expect(keys.bytes <= limit)
            }
            // The newest answer is kept whenever it fits alone.
            if let last = sizes.last, last + 512 < limit, case .fresh = keys.begin(Self.key("k\(sizes.count - 1)"), now: start) {
                Issue.record("the newest answer was dropped")
            }
            // An hour later, all have expired.
            _ = keys.begin(Self.key("later"), now: start + .seconds(3600))
            #expect(keys.bytes == 0)
        }
    }
}
