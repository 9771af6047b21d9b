import HTTPTestSupport
import TableKit
import TablePages
@testable import TablePagesTestSupport
import Testing

@Suite("A delegate answer a page cannot honour is logged, once")
struct IgnoredAnswerLogTests {
    @Test("show() from a row action leads nowhere and says so once, whatever the number of tries")
    func showFromARowActionWarnsOnce() async throws {
        let log = LogRecorder()
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "showing", title: "Showing") { _ in
            CascadingRootTableDelegate(childDelegates: [StaticSection(id: "s", rows: [ShowingRow(id: "r", cell: .blank)])])
        })
        try await withSite(pages: registry, logger: log.logger(from: .warning)) { server, _ in
            let client = try await TestConnection(port: server.port)
            for _ in 0..<3 {
                let answer = try await client.request("POST", "/pages/showing/rows/r/actions/open", headers: [("Accept", "application/json")])
                #expect(answer.status == 200)
                #expect(!answer.text.contains("location"), "the action leads nowhere")
            }
            let warnings = log.messages(at: .warning)
            #expect(warnings.count == 1, "\(warnings)")
            let line = try #require(warnings.first)
            #expect(line.contains("page showing"))
            #expect(line.contains("tableContext.show(\"/pages/elsewhere\")"))
            #expect(line.contains("linkForRow(at:)"), "it says what to do instead")
        }
    }

    @Test("An insert handled by the add form's row, not its section, answers 409 and the log says where commit(.insert) goes")
    func insertOnTheRowSaysWhereItIsDelivered() async throws {
        let log = LogRecorder()
        var registry = PageRegistry()
        registry.register(PageDefinition(name: "adding", title: "Adding") { _ in
            CascadingRootTableDelegate(childDelegates: [StaticSection(id: "add", rows: [AddFormRow(id: "new", cell: .blank)])])
        })
        // Not withSite: its logger keeps only warnings, and this is a notice.
        let site = Site(pages: registry, logger: log.logger(from: .notice), access: AccessSettings(anonymousWrites: true))
        let answer = await site.router.respond(to: AccessControlRoutesTests.request(.post, "/pages/adding/sections/add/rows", body: #"{"title":"Dune"}"#))
        #expect(answer.status == 409)
        #expect(String(decoding: answer.bodyBytes, as: UTF8.self).contains("does not take new rows"))
        let line = try #require(log.messages(at: .notice).first { $0.contains("changed nothing") })
        #expect(line.contains("section add of page adding"))
        #expect(line.contains("delivered to the section's delegate at the index path one past its last row"), "it says where the insert goes")
    }
}

/// The row that shows an add form, which a developer might expect `commit(.insert…)` to reach:
/// it is delivered to the section, at the index path one past its last row.
private final class AddFormRow: StaticRow {
    override func canEditRow(at indexPath: TableIndexPath) -> Bool { true }
    override func editingStyleForRow(at indexPath: TableIndexPath) -> EditingStyle { .insert }
}

/// A row whose "open" action asks to show another page, which only a selection may do.
private final class ShowingRow: StaticRow {
    override func actionsForRow(at indexPath: TableIndexPath) -> [RowAction] { [RowAction(name: "open", title: "Open")] }
    override func performAction(named name: String, forRowAt indexPath: TableIndexPath, values: [String: String]) {
        tableContext?.show("/pages/elsewhere")
    }
}
