import Foundation
import TablePagesDatabase

/// The tables a PostgreSQL query reads, from its plan: `EXPLAIN (VERBOSE, FORMAT JSON)` names the
/// relation each scan reads ("Relation Name", and with VERBOSE its "Schema"), after the planner
/// expanded views into the tables they read, and subqueries, CTEs and sub-plans into plans of
/// their own. What a live query watches (``/TablePagesDatabase/QueryResult/tables``).
///
///     PostgresPlanRelations.relations(inPlan: json)   // [(schema: "public", name: "orders")]
enum PostgresPlanRelations {
    /// The `(schema, name)` of every relation a node of the plan `json` scans, in the order found
    /// (a relation scanned twice is named twice); nil when `json` is not such a plan, or names a
    /// relation without its schema (a plan explained without VERBOSE).
    static func relations(inPlan json: String) -> [(schema: String, name: String)]? {
        // Foundation's parser drops a U+FEFF that begins a string (a table named so would be
        // misnamed); escaped, it is kept. PostgreSQL writes one only inside strings. Replaced scalar
        // by scalar: String's own search compares characters, and misses a U+FEFF that a combining
        // mark after it joins into one.
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if scalar == "\u{FEFF}" { escaped.append(contentsOf: "\\uFEFF".unicodeScalars) } else { escaped.append(scalar) }
        }
        guard let plan = try? JSONSerialization.jsonObject(with: Data(String(escaped).utf8), options: [.fragmentsAllowed]) as? [Any],
            plan.contains(where: { ($0 as? [String: Any])?["Plan"] != nil })
        else { return nil }
        var found: [(schema: String, name: String)] = []
        var pending: [Any] = plan
        // Every object at any depth: a node's children sit under "Plans", but nothing is lost if
        // a later PostgreSQL nests them elsewhere. Keys are PostgreSQL's; user text is only values.
        while let next = pending.popLast() {
            if let array = next as? [Any] {
                pending.append(contentsOf: array)
            } else if let object = next as? [String: Any] {
                if let name = object["Relation Name"] {
                    guard let name = name as? String, let schema = object["Schema"] as? String else { return nil }
                    found.append((schema, name))
                }
                pending.append(contentsOf: object.values)
            }
        }
        return found
    }

    /// How ``/TablePagesDatabase/QueryResult/tables`` and ``/TablePagesDatabase/ChangedTables``
    /// name the table `name` of `schema` on a server of the tables of `namespace`: by its name
    /// there, as the triggers' notifications do; elsewhere (a schema no trigger watches) as
    /// `"schema"."name"`, which no notification names.
    static func tableName(schema: String, name: String, namespace: String) -> String {
        schema == namespace ? name : SQLIdentifier.quoted(schema) + "." + SQLIdentifier.quoted(name)
    }
}
