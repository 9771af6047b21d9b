import HostileTextSupport
import PropertyBased
import Testing
@testable import TablePagesPostgres

@Suite("A visitor's EXPLAIN: its statement, or why it is refused", .shrinking(false))
struct PostgresExplainStatementTests {
    @Test("The statement an EXPLAIN explains, after plain options")
    func explains() {
        #expect(PostgresExplainStatement(sql: "select 1") == .notExplain)
        #expect(PostgresExplainStatement(sql: "EXPLAIN select 1") == .explains(inner: "select 1"))
        #expect(PostgresExplainStatement(sql: "/* c */ explain verbose\n with x as (select 1) table x") == .explains(inner: "with x as (select 1) table x"))
        #expect(PostgresExplainStatement(sql: "explain (costs off, format json, settings 1) values (1)") == .explains(inner: "values (1)"))
    }

    @Test("ANALYZE however written, quoted or escaped options, comments among them, other statements: refused", arguments: [
        "explain analyze select 1", "EXPLAIN ANALYSE select 1", "explain (ANALYZE) select 1", "explain (costs off, analyze true) select 1",
        "explain (\"analyze\") select 1", "explain (U&\"\\0061nalyze\") select 1", "explain (/* */ analyze) select 1",
        "explain (format 'json') select 1", "explain delete from t", "explain execute p", "explain", "(explain analyze select 1)",
    ])
    func refused(sql: String) {
        guard case .refused = PostgresExplainStatement(sql: sql) else {
            Issue.record("not refused: \(sql)")
            return
        }
    }

    @Test("Any options: either refused, or plain words without ANALYZE before a SELECT")
    func anyOptions() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { options in
            switch PostgresExplainStatement(sql: "explain (" + options + ") select 1") {
            case .explains(let inner):
                #expect(inner.hasSuffix("select 1"))
                let prefix = options.lowercased()
                #expect(!prefix.contains("analy") && prefix.allSatisfy { $0.isLetter || $0.isNumber || $0.isWhitespace || ",_()".contains($0) })
            case .refused: break
            case .notExplain: Issue.record("an EXPLAIN taken for another statement")
            }
        }
    }
}
