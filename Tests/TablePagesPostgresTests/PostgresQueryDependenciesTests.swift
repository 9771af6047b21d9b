import HostileTextSupport
import PropertyBased
@testable import TablePagesPostgres
import Testing

/// A query's numbered parameters stand as NULLs in the view whose text is judged, and nothing else
/// of the query changes.
@Suite struct PostgresQueryDependenciesTests {
    @Test func parametersBecomeNullsAndOtherDollarsStay() {
        #expect(PostgresQueryDependencies.withoutParameters("select $1, $12 + 1, '$x', $$a$$") == "select NULL, NULL + 1, '$x', $$a$$")
        #expect(PostgresQueryDependencies.withoutParameters("$") == "$")
        #expect(PostgresQueryDependencies.withoutParameters("price$2") == "priceNULL")
    }

    @Test func noNumberedParameterIsLeftAndTheRestIsKept() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, HostileText.text, Gen.int(in: 0...200)) { before, after, number in
            let out = PostgresQueryDependencies.withoutParameters(before + "$" + String(number) + after)
            let scalars = Array(out.unicodeScalars)
            for (index, scalar) in scalars.enumerated() where scalar == "$" && index + 1 < scalars.count {
                #expect(!("0"..."9").contains(scalars[index + 1]), "\(out)")
            }
            // Text with no `$` of its own, and no digit where the number ends, is kept around the NULL.
            if !before.contains("$"), !after.contains("$"), after.first.map({ !($0.isASCII && $0.isNumber) }) ?? true {
                #expect(out == before + "NULL" + after)
            }
        }
    }
}
