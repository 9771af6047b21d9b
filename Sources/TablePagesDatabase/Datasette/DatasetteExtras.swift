import Escaping
import Foundation
import TableKit
import TableStore

/// Datasette 1.0's `?_extra=` on a table's JSON (`_extra=count,columns`, repeatable): a request
/// that names any extra is answered with 1.0a41's document — `ok`, `next`, `next_url`, the extras,
/// `rows` (objects, or lists with `_shape=arrays`), `truncated` — while a request without one keeps
/// Datasette 0.65's document.
///
/// Each extra is one entry of ``writers``: its name and how its JSON value is written from the
/// page and what the document knows; an extra is added by adding an entry.
enum DatasetteExtras {
    /// Writes one extra's JSON value.
    typealias Writer = @Sendable (DatasetteTableReader.Page, DatasetteJSON.TableContext, inout OutputBuffer) -> Void

    /// The extras answered here, by name, in the order they are written.
    static let writers: [(name: String, write: Writer)] = [
        ("database", { _, context, out in out.appendJSONString(context.database) }),
        ("table", { _, context, out in out.appendJSONString(context.table.schema.name) }),
        ("is_view", { _, context, out in out.append(context.table.isView ? "true" : "false") }),
        ("human_description_en", { _, context, out in out.appendJSONString(context.humanDescription) }),
        ("columns", { page, _, out in DatasetteJSON.appendStrings(page.columns, to: &out) }),
        ("primary_keys", { _, context, out in DatasetteJSON.appendStrings(context.table.primaryKeys, to: &out) }),
        // Counted within the query time limit, so never cut short (past it the request is a 503).
        ("count_truncated", { _, _, out in out.append("false") }),
        ("count", { page, _, out in if let count = page.count { out.append(count) } else { out.append("null") } }),
        // 0.65's facets under 1.0's keys; counted within the query time limit, so none times out.
        ("facet_results", { _, context, out in
            out.append("{\"results\": ")
            if let links = context.facetLinks { DatasetteJSON.appendFacetResults(context.facets, table: context.table, links: links, to: &out) } else { out.append("{}") }
            out.append(", \"timed_out\": []}")
        }),
        ("facets_timed_out", { _, _, out in out.append("[]") }),
        ("suggested_facets", { _, context, out in
            if let links = context.facetLinks { DatasetteJSON.appendSuggestedFacets(context.facets, links: links, to: &out) } else { out.append("[]") }
        }),
        ("all_columns", { _, context, out in DatasetteJSON.appendStrings(context.table.columns, to: &out) }),
    ]

    /// Extras that 1.0a41 knows and this server does not answer: named in the refusal.
    static let unanswered: Set<String> = [
        "count_sql", "column_details",
        "actions", "debug", "request", "display_columns", "display_rows", "render_cell", "query", "column_types",
        "set_column_type_ui", "metadata", "database_color", "form_hidden_args", "filters", "custom_table_templates",
        "sorted_facet_results", "table_definition", "private", "expandable_columns", "renderers",
    ]

    /// The extras `items` name (`_extra`, comma-separated and repeatable), as a set; empty when none.
    static func requested(_ items: [(name: String, value: String)]) -> Set<String> {
        var names: Set<String> = []
        for item in items where item.name == "_extra" {
            for name in item.value.split(separator: ",") {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { names.insert(trimmed) }
            }
        }
        if names.contains("count") { names.insert("count_truncated") }
        // 1.0a41 adds the facets to any extras when a `_facet…` parameter is given.
        if !names.isEmpty, items.contains(where: { $0.name == "_facet" || $0.name.hasPrefix("_facet_") }) { names.insert("facet_results") }
        return names
    }

    /// Why `names` cannot be answered, as 1.0a41 words an unknown one; nil when they can.
    static func refusal(_ names: Set<String>) -> String? {
        let known: Set<String> = Set(writers.map { $0.name })
        let unknown: [String] = names.subtracting(known).subtracting(unanswered).sorted()
        if !unknown.isEmpty { return "Unknown _extra: " + unknown.joined(separator: ", ") }
        let notHere: [String] = names.intersection(unanswered).sorted()
        guard !notHere.isEmpty else { return nil }
        let answered: [String] = writers.map { $0.name }.filter { $0 != "count_truncated" }
        return "_extra " + notHere.joined(separator: ", ") + " is not answered by this server; it answers " + answered.joined(separator: ", ") + "."
    }

    /// 1.0a41's error document.
    static func error(_ message: String) -> String {
        var out = OutputBuffer(capacity: 128)
        out.append("{\"ok\": false, \"error\": ")
        out.appendJSONString(message)
        out.append(", \"errors\": [")
        out.appendJSONString(message)
        out.append("], \"status\": 400}")
        return out.string
    }
}
