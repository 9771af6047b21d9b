import Foundation
import HostileTextSupport
import PropertyBased
import TableStore
import Testing
@testable import TablePagesPostgres

// The URL's tests live with the one URL type, in TableStorePostgresTests (PostgresURLTests).
@Suite("PostgreSQL values", .shrinking(false))
struct PostgresValuesTests {
    @Test("A blob binds as bytea's hex text; reals in a spelling PostgreSQL reads back exactly")
    func boundText() async {
        #expect(PostgresValues.text(of: .blob(Data([0x00, 0xab, 0x7f]))) == "\\x00ab7f")
        #expect(PostgresValues.text(of: .null) == nil)
        #expect(PostgresValues.text(of: .bool(true)) == "true")
        await propertyCheckFailingOnThrow(input: Gen.double(in: -1e300...1e300)) { real in
            let text = try #require(PostgresValues.text(of: .real(real)))
            #expect(Double(text) == real)
        }
    }
}
