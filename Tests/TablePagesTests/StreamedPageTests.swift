import HostileTextSupport
import MicroHTTP
import PropertyBased
import Testing

@testable import TablePages

/// The `page` values of the shared event stream, `[lastEventID:]/pages/{page}[?query]`.
@Suite("Shared stream page values")
struct StreamedPageTests {
    @Test func aPageURLAloneFollowsFromNow() throws {
        let page = try StreamedPage.parse("/pages/todo")
        #expect(page.name == "todo" && page.query.isEmpty && page.queryItems.isEmpty)
        #expect(page.lastEventID == nil && page.lastSeen == nil)
    }

    @Test func anIdBeforeAColonIsWhereTheReplayStarts() throws {
        let page = try StreamedPage.parse("42:/pages/orders?status=open&q=a+b%26c&flag")
        #expect(page.name == "orders" && page.lastSeen == 42)
        #expect(page.query == "status=open&q=a+b%26c&flag")
        #expect(page.queryItems == [.init(name: "status", value: "open"), .init(name: "q", value: "a b&c"), .init(name: "flag", value: "")])
        #expect(try StreamedPage.parse("-7:/pages/todo").lastSeen == -7)
        // An id the server cannot have made is answered like a stale one (reset), as on a page's own stream.
        #expect(try StreamedPage.parse("v1.2:/pages/todo").lastSeen == -1)
        #expect(try StreamedPage.parse(":/pages/todo").lastSeen == nil)
        #expect(try StreamedPage.parse("1:/pages/to%20do").name == "to do")
    }

    @Test(arguments: [
        "", "todo", "pages/todo", "42/pages/todo", "42:pages/todo", "42:/page/todo", "/pages/", "/pages/?a=b",
        "/pages/todo/events", "/pages/todo/rows/todo-1", "/pages/%ZZ", "/pages/todo?q=%ZZ", "4 2:/pages/todo",
        "\u{1}:/pages/todo", String(repeating: "9", count: 65) + ":/pages/todo", "http://evil.example/pages/todo",
    ])
    func whatIsNotAPageValueIsA400SayingWhatIsWrong(text: String) {
        #expect {
            try StreamedPage.parse(text)
        } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.status == 400 && error.message.contains("[lastEventID:]/pages/{page}[?query]")
        }
    }

    /// Event ids as readers send them: none, the server's integers, or other text without a colon.
    static let lastEventID = zip(Gen.int(in: 0...3), Gen.int(in: Int.min...Int.max), HostileText.text).map { kind, number, text -> String? in
        switch kind {
        case 0: return nil
        case 1: return String(number)
        case 2: return ""
        default:
            // At most 16 scalars of at most 4 bytes: within the 64 bytes an event id may have (20
            // four-byte scalars, 80 bytes, were refused as they should be: a generator mistake).
            let cleaned = String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7f && $0 != ":" }.prefix(16))
            return cleaned.hasPrefix("/") ? "x" + cleaned : cleaned
        }
    }

    /// Query arguments of any text, encoded as a browser's URLSearchParams would.
    static let query = zip(HostileText.text, HostileText.text).array(of: 0...4).map { pairs in
        pairs.map { PercentEncoding.encode($0) + "=" + PercentEncoding.encode($1) }.joined(separator: "&")
    }

    @Test func everyPageValueReadsBackAsItWasWritten() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, Self.lastEventID, Self.query) { name, lastEventID, query in
            guard !name.isEmpty else { return }
            let items = query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return StreamedPage.QueryItem(name: PercentEncoding.decode(parts[0])!, value: PercentEncoding.decode(parts[1])!)
            }
            let page = StreamedPage(name: name, query: query, queryItems: items, lastEventID: lastEventID)
            #expect(throws: Never.self) { try StreamedPage.parse(page.encoded) }
            #expect((try? StreamedPage.parse(page.encoded)) == page, "\(page.encoded)")
        }
    }

    @Test func anyTextIsAPageOrA400NeverACrash() async {
        let pieces = ["/pages/", "todo", ":", "?", "&", "=", "%", "%2F", "%E2%80", "+", "/", "42", "-"]
        let shaped = zip(Gen.int(in: 0...99).array(of: 0...8), HostileText.text).map { codes, text in
            codes.map { $0 < 90 ? pieces[$0 % pieces.count] : text }.joined()
        }
        await propertyCheckFailingOnThrow(input: shaped) { text in
            switch Result(catching: { () throws(HTTPError) in try StreamedPage.parse(text) }) {
            case .success(let page):
                #expect(!page.name.isEmpty)
                #expect(text.hasSuffix(page.query))
            case .failure(let error):
                #expect(error.status == 400)
            }
        }
    }
}
