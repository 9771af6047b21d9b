import Foundation

/// The names a PostgreSQL plan calls: every expression of `EXPLAIN (VERBOSE, FORMAT JSON)` (its
/// outputs, filters, conditions, sort and group keys, function scans), as PostgreSQL prints what
/// it resolved, whatever the query's text said: a `U&"…"` name, a quoted one or a schema-qualified
/// one is printed as the function it names, after views and SQL functions were expanded. What
/// ``PostgresFunctionRule`` judges.
///
///     PostgresPlanCalls.names(inPlan: json)?.functions   // ["pg_read_file"]
struct PostgresPlanCalls: Equatable {
    /// Each name followed by `(`: a function, an aggregate, a window function (or one of
    /// PostgreSQL's upper-case keywords such as `COALESCE(`, which name no function).
    var functions: Set<String> = []
    /// Each run of operator characters (`+`, `~~`, `@>`): an operator, whose function is its `oprcode`.
    var operators: Set<String> = []
    /// Each name after `::`: the target type of a cast, whose function is its `pg_cast` entry's.
    var types: Set<String> = []

    /// Keys whose values are names (of relations, indexes, aliases), not expressions.
    static let nameKeys: Set<String> = [
        "Relation Name", "Schema", "Alias", "Index Name", "CTE Name", "Subplan Name", "Node Type", "Parent Relationship",
        "Strategy", "Partial Mode", "Join Type", "Scan Direction", "Operation", "Command", "Sort Method", "Sort Space Type",
    ]

    /// The calls of every expression in the plan `json`; nil when `json` is not a plan.
    static func names(inPlan json: String) -> PostgresPlanCalls? {
        guard let plan = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) as? [Any],
            plan.contains(where: { ($0 as? [String: Any])?["Plan"] != nil })
        else { return nil }
        var calls = PostgresPlanCalls()
        var pending: [(key: String?, value: Any)] = plan.map { (nil, $0) }
        // Every value at any depth: a later PostgreSQL may add keys, and each is read as an expression.
        while let (key, next) = pending.popLast() {
            switch next {
            case let array as [Any]: pending += array.map { (key, $0) }
            case let object as [String: Any]: pending += object.map { ($0.key, $0.value) }
            case let text as String:
                if key == "Function Name" { calls.functions.insert(text) } else if !nameKeys.contains(key ?? "") { calls.add(expression: text) }
            default: break
            }
        }
        return calls
    }

    /// Adds the calls of one expression as PostgreSQL prints it: `'…'` literals (`''` inside, and
    /// backslash escapes in `E'…'`) and `"…"` identifiers (`""` inside) are read whole, so that
    /// text in a literal is never taken for a call, and a quoted name is taken as the name it is.
    mutating func add(expression: String) {
        let scalars = Array(expression.unicodeScalars)
        var index = 0
        // Whether a `::` came just before (the next name is a cast's type), and whether the
        // literal that follows is an `E'…'` one.
        var previousWasCast = false
        var escapedLiteral = false
        func skipSpaces() { while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 } }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" {
                index += 1
                while index < scalars.count {
                    if escapedLiteral, scalars[index] == "\\" {
                        index += 2
                        continue
                    }
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count, scalars[index + 1] == "'" {
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
                (escapedLiteral, previousWasCast) = (false, false)
            } else if scalar == "\"" || Self.startsName(scalar) {
                var name = String.UnicodeScalarView()
                if scalar == "\"" {
                    index += 1
                    while index < scalars.count {
                        if scalars[index] == "\"" {
                            guard index + 1 < scalars.count, scalars[index + 1] == "\"" else { break }
                            index += 1
                        }
                        name.append(scalars[index])
                        index += 1
                    }
                    index += 1
                } else {
                    while index < scalars.count, Self.continuesName(scalars[index]) {
                        name.append(scalars[index])
                        index += 1
                    }
                    // E'…': an escape string follows at once.
                    escapedLiteral = (name.count == 1 && (name.first == "E" || name.first == "e")) && index < scalars.count && scalars[index] == "'"
                }
                let text = String(name)
                if previousWasCast { types.insert(text) }
                skipSpaces()
                if index < scalars.count, scalars[index] == "(" { functions.insert(text) }
                // A qualified type (`::public.money`) names each part; one of several words only its first.
                previousWasCast = previousWasCast && index < scalars.count && scalars[index] == "."
                if previousWasCast { index += 1 }
            } else if scalar == ":" {
                previousWasCast = index + 1 < scalars.count && scalars[index + 1] == ":"
                index += previousWasCast ? 2 : 1
                skipSpaces()
            } else if Self.operatorCharacters.contains(scalar) {
                var symbol = String.UnicodeScalarView()
                while index < scalars.count, Self.operatorCharacters.contains(scalars[index]) {
                    symbol.append(scalars[index])
                    index += 1
                }
                operators.insert(String(symbol))
                previousWasCast = false
            } else if ("0"..."9").contains(scalar) || scalar == "$" {
                // A number (1.5e10) or a parameter ($1): never a name.
                index += 1
                while index < scalars.count, Self.continuesName(scalars[index]) || scalars[index] == "." { index += 1 }
                previousWasCast = false
            } else {
                index += 1
                if !scalar.properties.isWhitespace { previousWasCast = false }
            }
        }
    }

    /// The characters PostgreSQL's operators are made of.
    static let operatorCharacters: Set<Unicode.Scalar> = ["+", "-", "*", "/", "<", ">", "=", "~", "!", "@", "#", "%", "^", "&", "|", "`", "?"]

    private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.value >= 0x80 || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
        startsName(scalar) || scalar == "$" || ("0"..."9").contains(scalar)
    }
}
