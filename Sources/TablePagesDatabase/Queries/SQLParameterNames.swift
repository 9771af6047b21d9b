/// The named parameters (`:name`) of an SQL text, in the order they first appear, each once: the
/// fields of the SQL page's form and the keys a canned query takes.
///
///     SQLParameterNames.names(in: "SELECT * FROM t WHERE a = :a AND b = ':no' -- :nor\n AND c > :a")
///     // ["a"]
///
/// A name is `:` followed by ASCII letters, digits and `_`. What SQL reads as something else is
/// skipped: string literals (`'…'`, with `''` inside), quoted identifiers (`"…"`, in backquotes,
/// `[…]`), comments (`-- …` to the line's end, `/* … */`) and PostgreSQL's casts (`x::text`).
public enum SQLParameterNames {
    /// The names in `sql`, without their colons.
    public static func names(in sql: String) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for (name, _) in occurrences(in: Array(sql.utf8)) where seen.insert(name).inserted { names.append(name) }
        return names
    }

    /// `sql` with each `:name` replaced by `$1`, `$2`, … (one number per name, in order of first
    /// appearance), as PostgreSQL numbers parameters, and the names in that order.
    public static func numbered(_ sql: String) -> (sql: String, names: [String]) {
        let bytes = Array(sql.utf8)
        var names: [String] = []
        var numbers: [String: Int] = [:]
        var out: [UInt8] = []
        var copied = 0
        for (name, range) in occurrences(in: bytes) {
            let number = numbers[name] ?? {
                names.append(name)
                numbers[name] = names.count
                return names.count
            }()
            out += bytes[copied..<range.lowerBound]
            out += Array("$\(number)".utf8)
            copied = range.upperBound
        }
        out += bytes[copied...]
        return (String(decoding: out, as: UTF8.self), names)
    }

    /// `sql` with each positional placeholder (`?` outside literals, quoted names and comments)
    /// replaced by a named one, `:{prefix}0`, `:{prefix}1`, … in order, and those names: how a
    /// table page's query is handed to the SQL page, as Datasette's "View and edit SQL" names them
    /// `:p0`, `:p1`…
    ///
    ///     SQLParameterNames.named("SELECT * FROM \"a?\" WHERE b = ? AND c = '?'", prefix: "p")
    ///     // ("SELECT * FROM \"a?\" WHERE b = :p0 AND c = '?'", ["p0"])
    public static func named(_ sql: String, prefix: String) -> (sql: String, names: [String]) {
        let bytes = Array(sql.utf8)
        var names: [String] = []
        var out: [UInt8] = []
        var copied = 0
        for index in scan(bytes).placeholders {
            let name = prefix + String(names.count)
            names.append(name)
            out += bytes[copied..<index]
            out += Array((":" + name).utf8)
            copied = index + 1
        }
        out += bytes[copied...]
        return (String(decoding: out, as: UTF8.self), names)
    }

    /// Whether `sql` holds more than one statement: a `;` outside literals, quoted names and
    /// comments with more than spaces and comments after it.
    public static func hasSeveralStatements(_ sql: String) -> Bool {
        let bytes = Array(sql.utf8)
        let separators = scan(bytes).separators
        guard let first = separators.first else { return false }
        // What follows the first `;`: only spaces, comments and more `;` make one statement.
        let rest = Array(bytes[(first + 1)...])
        let more = scan(rest).separators
        var outside = rest
        for index in more { outside[index] = UInt8(ascii: " ") }
        return !stripped(outside).isEmpty
    }

    /// `sql` up to its first `;` outside literals, quoted names and comments (all of it when it
    /// has none): the one statement of SQL that ``hasSeveralStatements(_:)`` is false for.
    public static func firstStatement(_ sql: String) -> String {
        let bytes = Array(sql.utf8)
        guard let first = scan(bytes).separators.first else { return sql }
        return String(decoding: bytes[..<first], as: UTF8.self)
    }

    /// `bytes` without comments and spaces.
    private static func stripped(_ bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                index = bytes[index...].firstIndex(of: 0x0a).map { $0 + 1 } ?? bytes.count
            } else if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index = endOfBlockComment(bytes, from: index + 2)
            } else {
                if ![0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { kept.append(bytes[index]) }
                index += 1
            }
        }
        return kept
    }

    /// Every `:name` in `bytes`: the name and the byte range of `:name`.
    static func occurrences(in bytes: [UInt8]) -> [(name: String, range: Range<Int>)] {
        scan(bytes).parameters
    }

    /// The `:name`s in `bytes`, the indexes of the `;`s that end statements and those of the `?`s
    /// (positional placeholders).
    private static func scan(_ bytes: [UInt8]) -> (parameters: [(name: String, range: Range<Int>)], separators: [Int], placeholders: [Int]) {
        var found: [(name: String, range: Range<Int>)] = []
        var separators: [Int] = []
        var placeholders: [Int] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                index = end(ofQuoted: bytes, from: index, closing: byte)
            case UInt8(ascii: "["):
                index = end(ofQuoted: bytes, from: index, closing: UInt8(ascii: "]"))
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                index = bytes[index...].firstIndex(of: 0x0a).map { $0 + 1 } ?? bytes.count
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index = endOfBlockComment(bytes, from: index + 2)
            case UInt8(ascii: ":") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ":"):
                // A cast: the type name after it is no parameter.
                index += 2
                while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            case UInt8(ascii: ":"):
                var end = index + 1
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                if end > index + 1 { found.append((String(decoding: bytes[(index + 1)..<end], as: UTF8.self), index..<end)) }
                index = end
            case UInt8(ascii: ";"):
                separators.append(index)
                index += 1
            case UInt8(ascii: "?"):
                placeholders.append(index)
                index += 1
            default:
                index += 1
            }
        }
        return (found, separators, placeholders)
    }

    /// Whether `byte` may be part of a parameter's name.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// The index after the quoted text that starts at `start`; a doubled closing quote is part of
    /// the text. An unclosed quote runs to the end.
    private static func end(ofQuoted bytes: [UInt8], from start: Int, closing: UInt8) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == closing {
                if closing != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == closing {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// The index after the `*/` that closes a block comment whose text starts at `start`.
    private static func endOfBlockComment(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { return index + 2 }
            index += 1
        }
        return bytes.count
    }
}
