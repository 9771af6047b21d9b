import HostileTextSupport
import PropertyBased
@testable import TablePagesDatabase
import Testing

@Suite struct QueryParameterNamesTests {
    /// One piece of SQL, and the parameter name it holds if it is one.
    static let piece = zip(Gen.int(in: 0...6), Gen.int(in: 0...5), HostileText.text).map { kind, nameIndex, text -> (sql: String, name: String?) in
        let name = ["a", "b", "status", "x_1", "Z9", "_"][nameIndex]
        // Every piece may hold what looks like a parameter; only the bare one is.
        let text = text + " :fake" + name
        switch kind {
        case 0: return (":" + name, name)
        // By scalars, as SQL reads them: a quote followed by a combining mark is still a quote.
        case 1: return ("'" + replacing("'", with: "''", in: text) + "'", nil)
        case 2: return ("-- " + replacing("\n", with: " ", in: text) + "\n", nil)
        case 3: return ("/* " + replacing("/", with: "|", in: text) + " */", nil)
        case 4: return ("\"" + replacing("\"", with: "\"\"", in: text) + "\"", nil)
        case 5: return ("x::" + name, nil)
        default: return ("[" + replacing("]", with: ")", in: text) + "]", nil)
        }
    }

    static func replacing(_ scalar: Unicode.Scalar, with replacement: String, in text: String) -> String {
        var result = String.UnicodeScalarView()
        for each in text.unicodeScalars {
            if each == scalar { result.append(contentsOf: replacement.unicodeScalars) } else { result.append(each) }
        }
        return String(result)
    }

    @Test func findsTheBareNamesInOrderOnceAndNothingInLiteralsCommentsOrCasts() async {
        await propertyCheckFailingOnThrow(input: Self.piece.array(of: 0...12)) { pieces in
            let sql = "SELECT " + pieces.map(\.sql).joined(separator: " , ")
            var expected: [String] = []
            for case let name? in pieces.map(\.name) where !expected.contains(name) { expected.append(name) }
            #expect(SQLParameterNames.names(in: sql) == expected, "\(sql)")
        }
    }

    @Test func examples() {
        #expect(SQLParameterNames.names(in: "select * from t where a = :a and b = ':b' and c = :c -- :d") == ["a", "c"])
        #expect(SQLParameterNames.names(in: "select :a, :a, :b") == ["a", "b"])
        #expect(SQLParameterNames.names(in: "select 'it''s :x' || :y") == ["y"])
        #expect(SQLParameterNames.names(in: "select * from t where x = :") == [])
        #expect(SQLParameterNames.names(in: "select * from t where a=:é") == [])
        // An unclosed literal or comment runs to the end.
        #expect(SQLParameterNames.names(in: "select ':a") == [])
        #expect(SQLParameterNames.names(in: "select /* :a") == [])
    }

    @Test func severalStatementsAreASemicolonWithMoreThanCommentsAfterIt() {
        #expect(SQLParameterNames.hasSeveralStatements("select 1; select 2"))
        #expect(SQLParameterNames.hasSeveralStatements("select 1; -- x\n delete from t"))
        #expect(!SQLParameterNames.hasSeveralStatements("select 1;"))
        #expect(!SQLParameterNames.hasSeveralStatements("select 1; ; -- done\n /* and */ "))
        #expect(!SQLParameterNames.hasSeveralStatements("select ';' || \"a;b\" -- ; x\n"))
        #expect(SQLParameterNames.firstStatement("select ';' ; ; -- done") == "select ';' ")
        #expect(SQLParameterNames.firstStatement("select 1 -- ;") == "select 1 -- ;")
    }

    @Test func positionalPlaceholdersBecomeNamedOnesInOrderAndNothingInLiteralsCommentsOrQuotedNames() async {
        // Pieces as above, each `:name` a bare `?` instead; only the bare ones are placeholders.
        await propertyCheckFailingOnThrow(input: Self.piece.array(of: 0...12)) { pieces in
            let positional = pieces.map { piece in piece.name == nil ? piece.sql + " '?' \"?\"" : "?" }
            let sql = "SELECT " + positional.joined(separator: " , ")
            let (named, names) = SQLParameterNames.named(sql, prefix: "p")
            let count = pieces.filter { $0.name != nil }.count
            #expect(names == (0..<count).map { "p\($0)" }, "\(sql)")
            // Named back, in order: the names found are those given, and nothing else changed.
            #expect(SQLParameterNames.names(in: named) == names, "\(named)")
            var restored = named
            for name in names.reversed() { restored = restored.replacing(":" + name, with: "?") }
            #expect(restored == sql)
        }
        let (sql, names) = SQLParameterNames.named(#"SELECT "a?" FROM t WHERE b = ? AND c = '?' -- ?"# + "\n AND d IN (?, ?)", prefix: "p")
        #expect(sql == #"SELECT "a?" FROM t WHERE b = :p0 AND c = '?' -- ?"# + "\n AND d IN (:p1, :p2)" && names == ["p0", "p1", "p2"])
    }

    @Test func numberedNamesAreDollarNumbersOnePerName() {
        let (sql, names) = SQLParameterNames.numbered("select :a, ':b', :b, :a -- :c")
        #expect(sql == "select $1, ':b', $2, $1 -- :c" && names == ["a", "b"])
    }
}
