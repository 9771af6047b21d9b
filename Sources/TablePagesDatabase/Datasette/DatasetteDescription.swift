import Foundation

/// The sentence Datasette 0.65 puts in a table document's `human_description_en`: the filters
/// in the order of their parameters' names and values (`where n > 2, t contains "a" and id != 3`),
/// the search, then the sort (`sorted by price descending`); empty for the whole table.
enum DatasetteDescription {
    /// The sentence for `filters` (query items that pick rows, in the request's spelling),
    /// `search`, `columnSearches` (`_search_COL`), `throughs` (`_through`) and `sort`.
    static func sentence(filters: [(name: String, value: String)], search: String?, columnSearches: [(column: String, text: String)] = [], throughs: [DatasetteTableRequest.Through] = [], sort: (column: String, descending: Bool)?) -> String {
        var clauses: [String] = []
        if let search, !search.isEmpty { clauses.append("search matches \"\(search)\"") }
        clauses += columnSearches.map { "search column \"\($0.column)\" matches \"\($0.text)\"" }
        clauses += throughs.map { "\($0.table).\($0.column) = \"\($0.text)\"" }
        let sorted = filters.filter { !$0.name.hasPrefix("_") || $0.name.contains("__") }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        for (name, value) in sorted {
            let split = name.range(of: "__", options: [.backwards, .literal])
            let column = split.map { String(name[..<$0.lowerBound]) } ?? name
            let lookup = split.map { String(name[$0.upperBound...]) } ?? "exact"
            if let clause = clause(column: column, lookup: lookup, value: value) { clauses.append(clause) }
        }
        var sentence = ""
        if !clauses.isEmpty {
            let tail = clauses.removeLast()
            sentence = "where " + (clauses.isEmpty ? tail : clauses.joined(separator: ", ") + " and " + tail)
        }
        if let sort {
            let sortedBy = "sorted by \(sort.column)" + (sort.descending ? " descending" : "")
            sentence = sentence.isEmpty ? sortedBy : sentence + " " + sortedBy
        }
        return sentence
    }

    /// One filter's words, as Datasette's filter of that lookup writes them; nil for a lookup it
    /// does not know.
    private static func clause(column c: String, lookup: String, value v: String) -> String? {
        let digits = !v.isEmpty && v.unicodeScalars.allSatisfy { $0.properties.numericType == .decimal }
        switch lookup {
        case "exact": return digits ? "\(c) = \(v)" : "\(c) = \"\(v)\""
        case "not": return digits ? "\(c) != \(v)" : "\(c) != \"\(v)\""
        case "contains": return "\(c) contains \"\(v)\""
        case "endswith": return "\(c) ends with \"\(v)\""
        case "startswith": return "\(c) starts with \"\(v)\""
        case "gt": return "\(c) > \(v)"
        case "gte": return "\(c) \u{2265} \(v)"
        case "lt": return "\(c) < \(v)"
        case "lte": return "\(c) \u{2264} \(v)"
        case "in", "notin":
            return "\(c) \(lookup == "in" ? "in" : "not in") \(pythonList(v))"
        case "isnull": return "\(c) is null"
        case "notnull": return "\(c) is not null"
        case "isblank": return "\(c) is blank"
        case "notblank": return "\(c) is not blank"
        case "like": return "\(c) like \"\(v)\""
        case "notlike": return "\(c) not like \"\(v)\""
        case "glob": return "\(c) glob \"\(v)\""
        case "date": return "\"\(c)\" is on date \(v)"
        case "arraycontains": return "\(c) contains \"\(v)\""
        case "arraynotcontains": return "\(c) does not contain \"\(v)\""
        default: return nil
        }
    }

    /// An `in` list as Python's `json.dumps` writes the values Datasette reads from it: a JSON
    /// array's strings and numbers as they are (`[1, "a"]`), else the comma-separated parts as strings.
    private static func pythonList(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let string = { (text: String) in (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\"" }
        var elements = (DatabaseFilter.listValues(value) ?? []).map(string)
        if value.hasPrefix("["), let array = try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [Any] {
            elements = array.map { element in
                guard let number = element as? NSNumber, !(element is String) else { return string(element as? String ?? "") }
                let isReal = ["d", "f"].contains(String(cString: number.objCType))
                return isReal ? DatasetteJSON.pythonRepr(number.doubleValue) : number.stringValue
            }
        }
        return "[" + elements.joined(separator: ", ") + "]"
    }
}
