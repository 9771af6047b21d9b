import Foundation
import HostileTextSupport
import PropertyBased
import Testing
@testable import TablePagesPostgres

@Suite("The functions, operators and casts a PostgreSQL plan calls", .shrinking(false))
struct PostgresPlanCallsTests {
    /// `text` as PostgreSQL prints a literal: in single quotes, each one inside doubled.
    static func literal(_ text: String) -> String { "'" + doubling("'", in: text) + "'" }

    /// `name` as PostgreSQL prints an identifier that needs quoting.
    static func quoted(_ name: String) -> String { "\"" + doubling("\"", in: name) + "\"" }

    /// `text` with each `quote` doubled, scalar by scalar as PostgreSQL does (String's own search
    /// compares characters, and misses a quote that a combining mark after it joins into one).
    static func doubling(_ quote: Unicode.Scalar, in text: String) -> String {
        var doubled = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            doubled.append(scalar)
            if scalar == quote { doubled.append(scalar) }
        }
        return String(doubled)
    }

    @Test("What PostgreSQL printed for the issue's reproductions names the function, however the query wrote it")
    func reproductions() throws {
        let plan = #"""
            [{"Plan": {"Node Type": "Aggregate", "Output": ["count(*) FILTER (WHERE pg_try_advisory_lock((k.k)::bigint))"], "Plans": [
                {"Node Type": "Function Scan", "Function Name": "generate_series", "Alias": "k", "Output": ["k.k"],
                 "Function Call": "generate_series(1, 20000)", "Filter": "(pg_catalog.\"pg_read_file\"('/etc/x'::text) <> 'a(b'::text)"},
                {"Node Type": "Result", "Output": ["ts_stat('select pg_read_file(''/etc/x'')'::text)", "E'\\' pg_ls_dir('::text", "(1 OPERATOR(public.===) 2)",
                 "('5'::public.money)"], "Relation Name": "relname(", "Alias": "alias("}]}}]
            """#
        let calls = try #require(PostgresPlanCalls.names(inPlan: plan))
        #expect(calls.functions == ["count", "FILTER", "pg_try_advisory_lock", "generate_series", "pg_read_file", "ts_stat", "OPERATOR"])
        #expect(calls.operators.isSuperset(of: ["<>", "==="]))
        #expect(calls.types.isSuperset(of: ["bigint", "text", "public", "money"]))
    }

    @Test("Not a plan: nil")
    func notAPlan() {
        #expect(PostgresPlanCalls.names(inPlan: "") == nil)
        #expect(PostgresPlanCalls.names(inPlan: #"[{"Output": ["f(1)"]}]"#) == nil)
    }

    @Test("Any text in a literal names nothing; any name, quoted and followed by (, is exactly that function")
    func literalsAndNames() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, HostileText.text) { text, name in
            var inLiteral = PostgresPlanCalls()
            inLiteral.add(expression: "(" + Self.literal(text) + "::text = " + Self.literal(text + "(") + ")")
            #expect(inLiteral.functions.isEmpty && inLiteral.operators == ["="] && inLiteral.types == ["text"])
            var called = PostgresPlanCalls()
            called.add(expression: "pg_catalog." + Self.quoted(name) + "(" + Self.literal(text) + ", " + Self.quoted(text) + ")")
            #expect(called.functions == [name])
        }
    }

    @Test("Any text at all: no crash")
    func anyText() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            var calls = PostgresPlanCalls()
            calls.add(expression: text)
            _ = PostgresPlanCalls.names(inPlan: #"[{"Plan": {"Output": ["# + text.debugDescription + #"]}}]"#)
        }
    }
}
