/// A visitor's `EXPLAIN`, split into its options and the statement it explains, whose plan is
/// judged (``PostgresFunctionRule``) before the `EXPLAIN` runs. `ANALYZE` runs the statement, and
/// options may be written in ways a word match misses (`("analyze")`, `(U&"\0061nalyze")`, a
/// comment): so the options are accepted only as plain words, commas and parentheses, none of
/// them `ANALYZE` or `ANALYSE`, and the statement must be a `SELECT`, `WITH`, `VALUES` or `TABLE`.
///
///     PostgresExplainStatement(sql: "EXPLAIN (COSTS off) select 1")   // .explains("select 1")
enum PostgresExplainStatement: Equatable {
    /// `sql` is no `EXPLAIN`.
    case notExplain
    /// An `EXPLAIN` of the statement `inner` (the rest of `sql`).
    case explains(inner: String)
    /// An `EXPLAIN` refused, and why.
    case refused(String)

    /// The statements an `EXPLAIN` may explain.
    static let explainable: Set<String> = ["select", "with", "values", "table"]

    /// What `sql` is, read from its start (after spaces and comments, as
    /// ``PostgresQueryRunner/firstWord(of:)`` reads it).
    init(sql: String) {
        var rest = Substring(sql)
        // Spaces, comments and opening parentheses before the first word.
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "(" })
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        let first = rest.prefix(while: { $0.isLetter })
        guard first.lowercased() == "explain" else {
            self = .notExplain
            return
        }
        rest = rest.dropFirst(first.count)
        var depth = 0
        while let next = rest.first {
            if next.isLetter {
                let word = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
                let lowered = word.lowercased()
                if lowered == "analyze" || lowered == "analyse" {
                    self = .refused("EXPLAIN ANALYZE is refused: it runs the statement. Use EXPLAIN without ANALYZE.")
                    return
                }
                if depth == 0, lowered != "verbose" {
                    self = Self.explainable.contains(lowered)
                        ? .explains(inner: String(rest))
                        : .refused("EXPLAIN explains only SELECT, WITH, VALUES or TABLE statements here: this one explains \(word.uppercased()).")
                    return
                }
                rest = rest.dropFirst(word.count)
            } else if next.isWhitespace || next.isNumber || next == "," || next == "_" {
                rest = rest.dropFirst()
            } else if next == "(" {
                depth += 1
                rest = rest.dropFirst()
            } else if next == ")", depth > 0 {
                depth -= 1
                rest = rest.dropFirst()
            } else {
                self = .refused("EXPLAIN's options must be plain words, e.g. EXPLAIN (COSTS off, FORMAT JSON) SELECT …: this one has \(next).")
                return
            }
        }
        self = .refused("EXPLAIN needs a statement to explain.")
    }
}
