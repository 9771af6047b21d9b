import TableKit

/// The JSON body of a request to Datasette's write API, parsed with its objects' members in the
/// order written: a table created from rows takes its columns in the order its rows name them, as
/// Datasette's does, which an unordered dictionary would lose.
///
/// Strict JSON (RFC 8259), as Python's `json` reads it: a duplicated key keeps its last value, a
/// whole number is an integer (one past 64 bits a real), and `NaN`/`Infinity` are refused. Nesting
/// is bounded (``maxDepth``) so a hostile body cannot exhaust the stack.
enum DatasetteJSONBody {
    /// The deepest nesting of arrays and objects read; deeper bodies are refused.
    static let maxDepth = 64

    /// Why a body is not JSON, and where.
    struct Invalid: Error, Equatable {
        /// What is wrong, for people.
        var reason: String
        /// The byte offset it was found at.
        var offset: Int
        /// Its line (from 1) and column (from 1), and its offset in characters, as Python counts them.
        var line = 1, column = 1, character = 0
        /// Datasette's words (Python's `json` error): "Invalid JSON: … line 1 column 2 (char 1)".
        var message: String { "Invalid JSON: \(reason): line \(line) column \(column) (char \(character))" }

        /// The error placed in `body`: line, column and character counted in Unicode scalars.
        func located(in body: [UInt8]) -> Invalid {
            var located = self
            let before = String(decoding: body.prefix(offset), as: UTF8.self).unicodeScalars
            located.character = before.count
            located.line = before.filter { $0 == "\n" }.count + 1
            located.column = located.character - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) } ?? -1)
            return located
        }
    }

    /// The value `body` holds.
    static func parse(_ body: [UInt8]) throws(Invalid) -> JSONValue {
        var parser = Parser(bytes: body)
        do throws(Invalid) {
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.index == body.count else { throw parser.invalid("Extra data") }
            return value
        } catch {
            throw error.located(in: body)
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func invalid(_ reason: String) -> Invalid { Invalid(reason: reason, offset: index) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(Invalid) -> JSONValue {
            guard depth <= DatasetteJSONBody.maxDepth else { throw invalid("Nested too deeply") }
            guard index < bytes.count else { throw invalid("Expecting value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw invalid("Expecting value")
            }
        }

        mutating func literal(_ word: String) throws(Invalid) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else { throw invalid("Expecting value") }
            index += expected.count
        }

        mutating func object(depth: Int) throws(Invalid) -> JSONValue {
            index += 1
            var members: [JSONProperty] = []
            var positions: [String: Int] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw invalid("Expecting property name enclosed in double quotes") }
                let name = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw invalid("Expecting ':' delimiter") }
                index += 1
                skipSpace()
                let member = try value(depth: depth + 1)
                // Python's json keeps a repeated key's last value, at its first place.
                if let at = positions[name] { members[at] = JSONProperty(name: name, value: member) } else {
                    positions[name] = members.count
                    members.append(JSONProperty(name: name, value: member))
                }
                skipSpace()
                guard index < bytes.count else { throw invalid("Expecting ',' delimiter") }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                guard bytes[index] == UInt8(ascii: ",") else { throw invalid("Expecting ',' delimiter") }
                index += 1
            }
        }

        mutating func array(depth: Int) throws(Invalid) -> JSONValue {
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw invalid("Expecting ',' delimiter") }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                guard bytes[index] == UInt8(ascii: ",") else { throw invalid("Expecting ',' delimiter") }
                index += 1
            }
        }

        mutating func number() throws(Invalid) -> JSONValue {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            // A leading zero is the whole integer part ("01" is not JSON).
            if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw invalid("Expecting value") }
            }
            var whole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                whole = false
                guard digits() > 0 else { throw invalid("Extra data") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                whole = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw invalid("Extra data") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if whole, let integer = Int64(text) { return .integer(integer) }
            guard let real = Double(text) else { throw invalid("Expecting value") }
            return .number(real)
        }

        mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        mutating func string() throws(Invalid) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ end: Int) throws(Invalid) {
                guard run < end else { return }
                guard let text = String(validating: bytes[run..<end], as: UTF8.self) else { throw Invalid(reason: "Invalid UTF-8", offset: run) }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw invalid("Unterminated string starting at") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flush(index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw invalid("Invalid control character at") }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                try flush(index)
                index += 1
                guard index < bytes.count else { throw invalid("Unterminated string starting at") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        let mark = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = mark
                        }
                    }
                    // A lone surrogate (Python keeps it; Swift strings cannot) becomes U+FFFD.
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw invalid("Invalid \\escape")
                }
                run = index
            }
        }

        mutating func hex4() throws(Invalid) -> UInt32 {
            guard bytes.count - index >= 4, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                  bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
                throw invalid("Invalid \\uXXXX escape")
            }
            index += 4
            return code
        }
    }
}
