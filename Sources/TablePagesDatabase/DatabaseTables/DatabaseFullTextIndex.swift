/// A full-text virtual table (FTS5, or FTS3/FTS4) read from its `CREATE VIRTUAL TABLE` statement:
/// its name and the options that tie it to the table it indexes.
///
/// A table is searchable (`_search`) through the FTS table whose `content=` option names it, as
/// `sqlite-utils enable-fts` makes (`CREATE VIRTUAL TABLE [t_fts] USING FTS5 ([a], content=[t])`,
/// Datasette's own rule); failing that, through an FTS table named `{table}_fts` that has no
/// `content=` (its rowids are taken to be the table's); and an FTS table searches itself.
struct DatabaseFullTextIndex: Sendable, Equatable {
    /// The FTS table's name.
    let table: String
    /// Its `content=` option, unquoted; nil when it has none (it stores its own text).
    let content: String?
    /// Its `content_rowid=` option, unquoted; nil when the content table's rowid is meant.
    let contentRowID: String?

    /// The FTS table created by `sql`, or nil when `sql` does not create one.
    init?(name: String, sql: String?) {
        guard let sql, sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") else { return nil }
        let parts = Self.tokens(sql)
        guard let open = parts.firstIndex(of: .open), open > 0,
              case .word(let module) = parts[open - 1], ["fts3", "fts4", "fts5"].contains(module.lowercased()) else { return nil }
        var options: [String: String] = [:]
        // Top-level `key = value` arguments; columns and nested lists are not options.
        var argument: [Token] = []
        var depth = 0
        for token in parts[(open + 1)...] {
            switch token {
            case .open: depth += 1
            case .close where depth == 0, .comma where depth == 0:
                if argument.count == 3, case .word(let key) = argument[0], argument[1] == .equals {
                    options[key.lowercased()] = argument[2].text
                }
                argument = []
                continue
            case .close: depth -= 1
            default: break
            }
            argument.append(token)
        }
        table = name
        content = options["content"]
        contentRowID = options["content_rowid"]
    }

    /// The tables SQLite keeps this FTS table's index in (`{table}_data`, `_idx`, … of FTS5;
    /// `_segments`, `_segdir`, … of FTS3/4), by lowercased name: data for SQLite, not for people,
    /// so the index leaves them out (as Datasette does).
    var shadowTables: Set<String> {
        Set(Self.shadowSuffixes.map { table.lowercased() + $0 })
    }

    /// Every suffix an FTS3, FTS4 or FTS5 table gives its shadow tables.
    private static let shadowSuffixes = ["_config", "_data", "_docsize", "_idx", "_content", "_segments", "_segdir", "_stat"]

    /// The FTS table among `indexes` that indexes `schema`'s rows, with the column of `schema`
    /// that equals its rowid; nil when none does.
    static func indexing(_ schema: DatabaseTableSchema, among indexes: [DatabaseFullTextIndex]) -> (table: String, rowIDColumn: String)? {
        let name = schema.name.lowercased()
        let chosen = indexes.first { $0.content?.lowercased() == name && $0.table.lowercased() != name }
            ?? indexes.first { $0.table.lowercased() == name }
            ?? indexes.first { $0.table.lowercased() == name + "_fts" && ($0.content ?? "").isEmpty }
        guard let chosen else { return nil }
        let rowIDColumn: String?
        if let named = chosen.contentRowID, chosen.table.lowercased() != name {
            rowIDColumn = schema.column(named: named)
        } else {
            rowIDColumn = schema.keyIsRowID ? schema.key[0] : nil
        }
        return rowIDColumn.map { (chosen.table, $0) }
    }

    // MARK: Reading the statement

    private enum Token: Equatable {
        case word(String)
        case quoted(String)
        case open, close, comma, equals, other

        /// The token's text, unquoted; nil for punctuation.
        var text: String? {
            switch self {
            case .word(let text), .quoted(let text): text
            default: nil
            }
        }
    }

    /// The statement as words, quoted names and strings (unquoted: `'a''b'`, `"a""b"`, `[a]`,
    /// `` `a` ``) and punctuation.
    private static func tokens(_ sql: String) -> [Token] {
        var tokens: [Token] = []
        var scalars = sql.unicodeScalars[...]
        while let first = scalars.first {
            switch first {
            case "'", "\"", "`", "[":
                let close: Unicode.Scalar = first == "[" ? "]" : first
                scalars.removeFirst()
                var text = String.UnicodeScalarView()
                while let next = scalars.first {
                    scalars.removeFirst()
                    if next == close {
                        // A doubled quote is one quote inside the text; `]` cannot be doubled.
                        guard close != "]", scalars.first == close else { break }
                        scalars.removeFirst()
                    }
                    text.append(next)
                }
                tokens.append(.quoted(String(text)))
            case "(": tokens.append(.open); scalars.removeFirst()
            case ")": tokens.append(.close); scalars.removeFirst()
            case ",": tokens.append(.comma); scalars.removeFirst()
            case "=": tokens.append(.equals); scalars.removeFirst()
            case _ where first.properties.isWhitespace: scalars.removeFirst()
            case _ where first == "_" || first.properties.isAlphabetic || first.properties.numericType != nil:
                let word = scalars.prefix { $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil }
                tokens.append(.word(String(String.UnicodeScalarView(word))))
                scalars.removeFirst(word.count)
            default:
                tokens.append(.other); scalars.removeFirst()
            }
        }
        return tokens
    }
}

extension DatabaseFullTextIndex {
    /// `search` as an FTS query that finds rows holding every word and every `"quoted phrase"` of
    /// it, and that is always valid syntax: each word or phrase becomes a quoted string (Datasette's
    /// default, which it calls escaped), so `AND`, `*`, `:` or a stray quote are plain text.
    static func escapedQuery(_ search: String) -> String {
        var pieces: [String] = []
        var scalars = search.unicodeScalars[...]
        while let first = scalars.first {
            if first.properties.isWhitespace {
                scalars.removeFirst()
            } else if first == "\"" {
                scalars.removeFirst()
                let phrase = scalars.prefix { $0 != "\"" }
                scalars.removeFirst(min(phrase.count + 1, scalars.count))
                pieces.append(String(String.UnicodeScalarView(phrase)))
            } else {
                let word = scalars.prefix { !$0.properties.isWhitespace && $0 != "\"" }
                scalars.removeFirst(word.count)
                pieces.append(String(String.UnicodeScalarView(word)))
            }
        }
        return pieces.filter { !$0.isEmpty }.map { "\"" + $0 + "\"" }.joined(separator: " ")
    }
}
