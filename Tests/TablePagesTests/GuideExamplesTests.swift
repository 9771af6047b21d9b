import MicroHTTP
import TablePages
import Testing

/// The examples docs/guide.md quotes (Tests/TablePagesTests/GuideExamples) do what the guide says.
@Suite("The guide's examples")
struct GuideExamplesTests {
    static func get(_ site: Site, _ path: String, query: [(name: String, value: String)] = []) async -> (status: Int, text: String) {
        let response = await site.router.respond(to: AccessControlRoutesTests.request(.get, path, query: query))
        return (response.status, String(decoding: response.bodyBytes, as: UTF8.self))
    }

    @Test("A variant resolver with typed throws: any year is a variant, none is the default, a year that is not one is a 400 in words")
    func variantResolver() async throws {
        #expect(try BooksSincePage.resolveYear([:]) == [:])
        #expect(try BooksSincePage.resolveYear(["year": "", "after": "x"]) == [:])
        #expect(try BooksSincePage.resolveYear(["year": "1980"]) == ["year": "1980"])
        let refused = #expect(throws: PageDefinition.VariantError.self) { try BooksSincePage.resolveYear(["year": "soon"]) }
        #expect(refused?.message.contains("whole number from 1450") == true)

        var pages = PageRegistry()
        pages.register(BooksSincePage.definition)
        let site = Site(pages: pages)
        let all = await Self.get(site, "/pages/since.json")
        #expect(all.status == 200)
        #expect(["Dune", "Neuromancer", "Piranesi"].allSatisfy { all.text.contains($0) })
        let since = await Self.get(site, "/pages/since.json", query: [("year", "1980")])
        #expect(since.status == 200)
        #expect(!since.text.contains("Dune") && since.text.contains("Neuromancer") && since.text.contains("Piranesi"))
        let wrong = await Self.get(site, "/pages/since.json", query: [("year", "1200")])
        #expect(wrong.status == 400)
        #expect(wrong.text.contains("year must be a whole number from 1450 on"))
    }
}
