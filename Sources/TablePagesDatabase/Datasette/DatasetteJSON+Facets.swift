import TableStore
import TableKit

extension DatasetteJSON {
    /// Where a table document's facet links lead: the request's URL, and its query as Datasette
    /// reads it, to add a parameter to or take one from (its `path_with_added_args` and
    /// `path_with_removed_args`).
    struct FacetLinks: Sendable {
        /// `http://host`, as the request was addressed.
        var origin: String
        /// The request's path.
        var path: String
        /// The request's query items in order, blank values too.
        var items: [(name: String, value: String)]

        /// The items with a value: what Python's `parse_qsl` keeps, which Datasette's links start from.
        private var valued: [(name: String, value: String)] { items.filter { !$0.value.isEmpty } }

        /// The path with `name=value` added after the request's own parameters.
        func adding(_ name: String, _ value: String) -> String {
            path + "?" + DatasetteAPI.formEncoded(valued + [(name, value)])
        }

        /// The path with `name=` and a blob's bytes added, each byte encoded as Python's
        /// `urlencode` encodes `bytes`.
        func adding(_ name: String, bytes: [UInt8]) -> String {
            var encoded = ""
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                    encoded.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: " "): encoded += "+"
                default: encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            }
            let start = DatasetteAPI.formEncoded(valued)
            return path + "?" + start + (start.isEmpty ? "" : "&") + DatasetteAPI.formEncoded([(name, "")]) + encoded
        }

        /// The path without the parameters named `name` whose value is `value`.
        func removing(_ name: String, _ value: String) -> String {
            let kept = valued.filter { !($0.name == name && $0.value == value) }
            return kept.isEmpty ? path : path + "?" + DatasetteAPI.formEncoded(kept)
        }
    }

    /// `"facet_results": {…}, "suggested_facets": [...]` as Datasette 0.65 writes them.
    static func appendFacets(_ result: DatasetteFacets.Result, table: DatasetteTable, links: FacetLinks, to out: inout OutputBuffer) {
        out.append("\"facet_results\": ")
        appendFacetResults(result, table: table, links: links, to: &out)
        out.append(", \"suggested_facets\": ")
        appendSuggestedFacets(result, links: links, to: &out)
    }

    /// The facets' object, each facet by its key (0.65's `facet_results`, 1.0's `facet_results.results`).
    static func appendFacetResults(_ result: DatasetteFacets.Result, table: DatasetteTable, links: FacetLinks, to out: inout OutputBuffer) {
        out.append("{")
        for (index, (key, facet)) in zip(DatabaseFacet.keys(of: result.facets), result.facets).enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(key)
            out.append(": {\"name\": ")
            out.appendJSONString(facet.column)
            out.append(", \"type\": ")
            out.appendJSONString(facet.kind.rawValue)
            let toggle = links.removing(facet.kind.parameter, facet.column)
            // Datasette writes a column facet's keys in another order than the others'.
            if facet.kind == .column {
                out.append(", \"hideable\": true, \"toggle_url\": ")
                out.appendJSONString(toggle)
                out.append(", \"results\": ")
                appendFacetValues(facet, table: table, links: links, to: &out)
            } else {
                out.append(", \"results\": ")
                appendFacetValues(facet, table: table, links: links, to: &out)
                out.append(", \"hideable\": true, \"toggle_url\": ")
                out.appendJSONString(toggle)
            }
            out.append(", \"truncated\": ")
            out.append(facet.isTruncated ? "true" : "false")
            out.append("}")
        }
        out.append("}")
    }

    /// The suggested facets' list, each with the link that adds it.
    static func appendSuggestedFacets(_ result: DatasetteFacets.Result, links: FacetLinks, to out: inout OutputBuffer) {
        out.append("[")
        for (index, suggestion) in result.suggestions.enumerated() {
            if index > 0 { out.append(", ") }
            out.append("{\"name\": ")
            out.appendJSONString(suggestion.column)
            if suggestion.kind != .column {
                out.append(", \"type\": ")
                out.appendJSONString(suggestion.kind.rawValue)
            }
            out.append(", \"toggle_url\": ")
            out.appendJSONString(links.origin + links.adding(suggestion.kind.parameter, suggestion.column))
            out.append("}")
        }
        out.append("]")
    }

    /// A facet's `results`: each value with its label, count, the link that adds (or, when
    /// chosen, removes) its filter, and whether it is chosen.
    private static func appendFacetValues(_ facet: DatabaseFacet, table: DatasetteTable, links: FacetLinks, to out: inout OutputBuffer) {
        let link = facet.kind == .column ? table.schema.linkedColumns.first { $0.column == facet.column } : nil
        let filterName: String
        switch facet.kind {
        case .column: filterName = facet.column.hasPrefix("_") ? facet.column + "__exact" : facet.column
        case .date, .array: filterName = facet.column + "__" + facet.kind.filterOperator
        }
        out.append("[")
        for (index, counted) in facet.values.enumerated() {
            if index > 0 { out.append(", ") }
            let text = DatasetteTableReader.text(counted.value)
            var isBlob = false
            if case .blob = counted.value { isBlob = true }
            let selected = switch facet.kind {
            // Datasette compares with Python's str() of a blob, `b'…'`, which no parameter is.
            case _ where isBlob: false
            case .date: links.items.last { $0.name == filterName }?.value == text
            case .column, .array: links.items.contains { $0.name == filterName && $0.value == text }
            }
            out.append("{\"value\": ")
            // A date facet's values are text; an array facet's are written as Python's str() of the item.
            if facet.kind == .column { appendValue(counted.value, to: &out) } else { out.appendJSONString(text) }
            out.append(", \"label\": ")
            if facet.kind != .column {
                out.appendJSONString(text)
            } else if let link, link.labelColumn == nil {
                out.appendJSONString(text)
            } else if let label = counted.label {
                if let label { out.appendJSONString(label) } else { out.append("null") }
            } else {
                appendValue(counted.value, to: &out)
            }
            out.append(", \"count\": ")
            out.append(counted.count)
            out.append(", \"toggle_url\": ")
            if case .blob(let data) = counted.value {
                out.appendJSONString(links.origin + links.adding(filterName, bytes: Array(data)))
            } else {
                out.appendJSONString(links.origin + (selected ? links.removing(filterName, text) : links.adding(filterName, text)))
            }
            out.append(", \"selected\": ")
            out.append(selected ? "true" : "false")
            out.append("}")
        }
        out.append("]")
    }
}
