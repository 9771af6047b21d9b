import Escaping
import HostileTextSupport
import PropertyBased
import TablePagesDatabase
import Testing

/// A table's page never takes the name of one of TablePages' own pages (the live SQL page, the
/// canned queries), and no two tables share a page, whatever their names.
@Suite struct DatabaseTablePageNameTests {
    /// Names of the built-in pages, or made to look like them.
    private static let prefixes = ["", "-/", "queries/", "queries~2F", "-~2F", "queries~7E2F"]

    @Test func anOrdinaryNameIsItsOwnPageName() {
        for name in ["orders", "x.csv", "-starts-with-dash", "queries", "a/b", "日本語"] {
            #expect(DatabaseTablePages.pageName(ofTable: name) == name)
        }
    }

    @Test func aNameOfABuiltInPageIsEncoded() {
        #expect(DatabaseTablePages.pageName(ofTable: "-/sql") == "-~2Fsql")
        #expect(DatabaseTablePages.pageName(ofTable: "queries/top") == "queries~2Ftop")
        #expect(DatabaseTablePages.pageName(ofTable: "queries~2Ftop") == "queries~7E2Ftop")
    }

    @Test func noTableTakesABuiltInPagesNameAndNoTwoTablesShareAPage() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...35), HostileText.text, HostileText.text) { prefixes, a, b in
            let one = Self.prefixes[prefixes / 6] + a
            let other = Self.prefixes[prefixes % 6] + b
            let (pageOne, pageOther) = (DatabaseTablePages.pageName(ofTable: one), DatabaseTablePages.pageName(ofTable: other))
            for page in [pageOne, pageOther] {
                #expect(!page.hasPrefix("-/") && !page.hasPrefix("queries/"), "\(page)")
            }
            if one != other { #expect(pageOne != pageOther, "\(one) and \(other) share \(pageOne)") }
        }
    }
}
