import Foundation
import HostileTextSupport
import PropertyBased
import Testing
@testable import TablePagesPostgres

@Suite("The tables a PostgreSQL plan reads", .shrinking(false))
struct PostgresPlanRelationsTests {
    /// A plan as `EXPLAIN (VERBOSE, FORMAT JSON)` writes one for a join of a table with a view
    /// over another schema's table, a CTE and a sub-plan.
    static let plan = #"""
        [{"Plan": {"Node Type": "Limit", "Output": ["o.status"], "Plans": [
            {"Node Type": "Hash Join", "Parent Relationship": "Outer", "Hash Cond": "(o.customer = c.name)", "Plans": [
                {"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": "orders", "Schema": "public", "Alias": "o",
                 "Filter": "(o.code <> '{\"Relation Name\": \"fake\"}'::text)"},
                {"Node Type": "Hash", "Parent Relationship": "Inner", "Plans": [
                    {"Node Type": "Index Scan", "Relation Name": "Customer \"list\"", "Schema": "crm", "Alias": "c"}]}]},
            {"Node Type": "CTE Scan", "Parent Relationship": "InitPlan", "CTE Name": "recent", "Plans": [
                {"Node Type": "Seq Scan", "Relation Name": "orders", "Schema": "public", "Alias": "orders_1"}]},
            {"Node Type": "Function Scan", "Function Name": "generate_series", "Schema": "pg_catalog", "Alias": "g"}]}}]
        """#

    @Test("Each scanned relation with its schema, the views expanded; text in values is not a relation")
    func aPlan() throws {
        let found = try #require(PostgresPlanRelations.relations(inPlan: Self.plan))
        #expect(found.map { "\($0.schema).\($0.name)" }.sorted() == ["crm.Customer \"list\"", "public.orders", "public.orders"])
        #expect(PostgresPlanRelations.tableName(schema: "public", name: "orders", namespace: "public") == "orders")
        #expect(PostgresPlanRelations.tableName(schema: "crm", name: "Customer \"list\"", namespace: "public") == #""crm"."Customer ""list""""#)
    }

    @Test("Not a plan, or a relation without its schema (no VERBOSE): nil, never a guess")
    func notAPlan() {
        #expect(PostgresPlanRelations.relations(inPlan: "") == nil)
        #expect(PostgresPlanRelations.relations(inPlan: "{}") == nil)
        #expect(PostgresPlanRelations.relations(inPlan: #"[{"Relation Name": "orders", "Schema": "public"}]"#) == nil)
        #expect(PostgresPlanRelations.relations(inPlan: #"[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "orders"}}]"#) == nil)
        #expect(PostgresPlanRelations.relations(inPlan: #"[{"Plan": {"Node Type": "Result"}}]"#)?.isEmpty == true)
    }

    @Test("Any text: no crash, and a plan only when it is one")
    func anyText() async {
        await propertyCheckFailingOnThrow(input: HostileText.text) { text in
            let found = PostgresPlanRelations.relations(inPlan: text)
            #expect(found == nil || text.contains("Plan"))
        }
    }

    /// One node of a generated plan: where it hangs (a seed for its parent among the nodes
    /// before it), the relation it scans if any, and text of the visitor's in another key.
    typealias Node = (parent: Int, scans: Bool, schema: String, name: String, note: String)

    static let nodes = zip(Gen.int(in: 0...1000), Gen.bool, HostileText.text, HostileText.text, HostileText.text)
        .map { Node(parent: $0, scans: $1, schema: $2, name: $3, note: $4) }
        .array(of: 1...12)

    /// `nodes` as a plan tree whose nodes' children are under "Plans", serialized as PostgreSQL would.
    static func json(of nodes: [Node]) throws -> String {
        var children: [[Int]] = Array(repeating: [], count: nodes.count)
        for index in nodes.indices.dropFirst() { children[nodes[index].parent % index].append(index) }
        func node(_ index: Int) -> [String: Any] {
            let made = nodes[index]
            var object: [String: Any] = ["Node Type": made.scans ? "Seq Scan" : "Append", "Output": [made.note, "\"Relation Name\": \"x\""], "Filter": made.note]
            if made.scans {
                object["Relation Name"] = made.name
                object["Schema"] = made.schema
            }
            if !children[index].isEmpty { object["Plans"] = children[index].map(node) }
            return object
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: [["Plan": node(0)]]), as: UTF8.self)
    }

    @Test("Any plan tree, with any names and any text in its values: exactly the relations its nodes scan")
    func anyPlan() async {
        await propertyCheckFailingOnThrow(input: Self.nodes) { nodes in
            let json = try Self.json(of: nodes)
            let found = try #require(PostgresPlanRelations.relations(inPlan: json))
            let expected = nodes.filter(\.scans).map { [$0.schema, $0.name] }
            #expect(found.map { [$0.schema, $0.name] }.sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }
}
