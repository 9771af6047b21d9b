import Foundation
import GRDBSQLite
import Synchronization

/// The SQL page's own versions of SQLite functions whose one call could outrun the query time
/// limit on values within `SQLITE_LIMIT_LENGTH`: SQLite's progress handler runs between steps,
/// never inside a call. SQLite's `instr`, `replace` and two-argument `trim`s compare every
/// position of one text with the whole of another (a 400 kB text and a 20 kB one: `trim` ran
/// past 100 s), and `printf('%.*c', n, 'x')` loops `n` times even after its output passed the
/// limit (900 million: 5 s of CPU, three such terms 11 s). These answer the same, in time linear
/// in their arguments; `printf`/`format` refuse widths and precisions that add up past the limit
/// (their output could not be kept anyway) and leave the formatting to SQLite, on a connection
/// of their own.
///
///     let functions = try SQLiteBoundedFunctions(lengthLimit: 8 << 20)
///     functions.install(on: db.sqliteConnection)
final class SQLiteBoundedFunctions: @unchecked Sendable {
    // Unchecked: a thin wrapper of a C connection handle, used only under `formatting`'s lock.
    private let lengthLimit: Int
    private let formatter: OpaquePointer
    private let formatting = Mutex(())

    /// Functions for connections whose `SQLITE_LIMIT_LENGTH` is `lengthLimit`.
    /// - Throws: ``QueryRefusal`` when SQLite cannot open its in-memory formatting connection.
    init(lengthLimit: Int) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw QueryRefusal("SQLite could not open an in-memory connection for printf.")
        }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: lengthLimit))
        formatter = handle
        self.lengthLimit = lengthLimit
    }

    deinit {
        sqlite3_close_v2(formatter)
    }

    /// Replaces `instr`, `replace`, `trim`/`ltrim`/`rtrim` of two arguments, `printf` and
    /// `format` on `connection`. Each registration holds this object until SQLite drops it.
    func install(on connection: OpaquePointer?) {
        let functions: [(String, Int32, Operation)] = [
            ("instr", 2, .instr), ("replace", 3, .replace), ("trim", 2, .trim(leading: true, trailing: true)),
            ("ltrim", 2, .trim(leading: true, trailing: false)), ("rtrim", 2, .trim(leading: false, trailing: true)),
            ("printf", -1, .format), ("format", -1, .format),
        ]
        for (name, count, operation) in functions {
            let registration = Unmanaged.passRetained(Registration(functions: self, operation: operation)).toOpaque()
            sqlite3_create_function_v2(
                connection, name, count, SQLITE_UTF8 | SQLITE_DETERMINISTIC, registration,
                { context, count, arguments in
                    guard let context, let arguments else { return }
                    let registration = Unmanaged<Registration>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                    registration.functions.call(registration.operation, context: context, arguments: UnsafeBufferPointer(start: arguments, count: Int(count)))
                },
                nil, nil, { Unmanaged<Registration>.fromOpaque($0!).release() })
        }
    }

    private enum Operation {
        case instr, replace, format
        case trim(leading: Bool, trailing: Bool)
    }

    /// What one registration's user data points at.
    private final class Registration {
        let functions: SQLiteBoundedFunctions
        let operation: Operation

        init(functions: SQLiteBoundedFunctions, operation: Operation) {
            self.functions = functions
            self.operation = operation
        }
    }

    private func call(_ operation: Operation, context: OpaquePointer, arguments: UnsafeBufferPointer<OpaquePointer?>) {
        switch operation {
        case .instr: instr(context, arguments[0], arguments[1])
        case .replace: replace(context, arguments[0], arguments[1], arguments[2])
        case .trim(let leading, let trailing): trim(context, arguments[0], arguments[1], leading: leading, trailing: trailing)
        case .format: format(context, arguments)
        }
    }

    /// SQLite's `instr(X, Y)`: the 1-based position of the first Y in X, in characters (in bytes
    /// when both are blobs), 0 when there is none, NULL when either is NULL.
    private func instr(_ context: OpaquePointer, _ haystack: OpaquePointer?, _ needle: OpaquePointer?) {
        let haystackType = sqlite3_value_type(haystack), needleType = sqlite3_value_type(needle)
        guard haystackType != SQLITE_NULL, needleType != SQLITE_NULL else { return sqlite3_result_null(context) }
        let isText = !(haystackType == SQLITE_BLOB && needleType == SQLITE_BLOB)
        let hay = Self.bytes(haystack, asText: isText), pattern = BytePattern(Self.bytes(needle, asText: isText))
        guard !pattern.bytes.isEmpty else { return sqlite3_result_int64(context, 1) }
        var start = 0
        while let found = pattern.first(in: hay, from: start) {
            // SQLite tries the first byte, then only bytes that start a character, counting them.
            if isText, found > 0, hay[found] & 0xC0 == 0x80 {
                start = found + 1
                continue
            }
            let position = isText && found > 0 ? 1 + hay[1...found].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } : found + 1
            return sqlite3_result_int64(context, Int64(position))
        }
        sqlite3_result_int64(context, 0)
    }

    /// SQLite's `replace(X, Y, Z)`: X with every Y, left to right and not overlapping, replaced
    /// by Z, as text; X when Y is empty; NULL when X or Y is NULL, or Z is.
    private func replace(_ context: OpaquePointer, _ text: OpaquePointer?, _ pattern: OpaquePointer?, _ replacement: OpaquePointer?) {
        guard sqlite3_value_type(text) != SQLITE_NULL, sqlite3_value_type(pattern) != SQLITE_NULL else { return sqlite3_result_null(context) }
        let input = Self.bytes(text, asText: true), old = BytePattern(Self.bytes(pattern, asText: true))
        // As SQLite: a pattern that starts with a zero byte is empty, and then X is the answer
        // even when Z is NULL.
        guard old.bytes.first ?? 0 != 0 else { return sqlite3_result_value(context, text) }
        guard sqlite3_value_type(replacement) != SQLITE_NULL else { return sqlite3_result_null(context) }
        let new = Self.bytes(replacement, asText: true)
        var output: [UInt8] = []
        output.reserveCapacity(min(input.count, lengthLimit))
        var start = 0
        old.forEach(in: input) { found in
            output.append(contentsOf: input[start..<found])
            output.append(contentsOf: new)
            start = found + old.bytes.count
            return output.count <= lengthLimit
        }
        guard output.count <= lengthLimit else { return sqlite3_result_error_toobig(context) }
        output.append(contentsOf: input[start...])
        result(text: output, context: context)
    }

    /// SQLite's `trim(X, Y)` (and `ltrim`, `rtrim`): X without the characters of Y at its start
    /// and end, as text; NULL when either is NULL. As SQLite: Y is cut into characters as
    /// `SQLITE_SKIP_UTF8` cuts it (a byte of 0xC0 or more with the continuation bytes after it),
    /// and while X starts (then ends) with one of them, the first of them in Y that it starts
    /// with is taken off. A character of Y of more than 4 bytes (not UTF-8) is refused.
    private func trim(_ context: OpaquePointer, _ text: OpaquePointer?, _ characters: OpaquePointer?, leading: Bool, trailing: Bool) {
        guard sqlite3_value_type(text) != SQLITE_NULL, sqlite3_value_type(characters) != SQLITE_NULL else {
            return sqlite3_result_null(context)
        }
        let input = Self.bytes(text, asText: true), set = Self.bytes(characters, asText: true)
        // Each character of Y to its position in Y (the first wins): single bytes in a table,
        // longer ones by their bytes as a number.
        var single = [Int](repeating: .max, count: 256)
        var longer: [UInt64: Int] = [:]
        var index = 0, position = 0
        while index < set.count {
            let start = index
            index += 1
            if set[start] >= 0xC0 { while index < set.count, set[index] & 0xC0 == 0x80 { index += 1 } }
            guard index - start <= 4 else {
                return sqlite3_result_error(context, "trim: the characters to remove are not UTF-8", -1)
            }
            if index - start == 1 {
                single[Int(set[start])] = min(single[Int(set[start])], position)
            } else if longer[Self.key(set[start..<index])] == nil {
                longer[Self.key(set[start..<index])] = position
            }
            position += 1
        }
        // The length of the first character of Y that `input[range]` starts (or ends) with.
        func match(at edge: Int, within count: Int, leading: Bool) -> Int? {
            var best = (length: 0, position: Int.max)
            if single[Int(input[leading ? edge : edge - 1])] < best.position { best = (1, single[Int(input[leading ? edge : edge - 1])]) }
            if !longer.isEmpty, count > 1 {
                for length in 2...min(4, count) {
                    let bytes = leading ? input[edge..<(edge + length)] : input[(edge - length)..<edge]
                    if let found = longer[Self.key(bytes)], found < best.position { best = (length, found) }
                }
            }
            return best.length > 0 ? best.length : nil
        }
        var first = 0, last = input.count
        if leading { while first < last, let length = match(at: first, within: last - first, leading: true) { first += length } }
        if trailing { while last > first, let length = match(at: last, within: last - first, leading: false) { last -= length } }
        result(text: Array(input[first..<last]), context: context)
    }

    /// Up to 4 bytes as one number, with their count: the same bytes, the same number.
    private static func key(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(UInt64(bytes.count)) { $0 << 8 | UInt64($1) }
    }

    /// `printf`/`format`, refused (too big) when the widths and precisions its conversions ask
    /// for add up past the length limit, else SQLite's own, on ``formatter``.
    private func format(_ context: OpaquePointer, _ arguments: UnsafeBufferPointer<OpaquePointer?>) {
        guard let template = arguments.first, sqlite3_value_type(template) != SQLITE_NULL else { return sqlite3_result_null(context) }
        let asked = Self.requestedWidth(of: Self.bytes(template, asText: true)) { index in
            index < arguments.count ? sqlite3_value_int64(arguments[index]) : 0
        }
        guard asked <= lengthLimit else { return sqlite3_result_error_toobig(context) }
        formatting.withLock { _ in
            let numbers = arguments.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(formatter, "SELECT printf(\(numbers))", -1, &statement, nil) == SQLITE_OK else {
                sqlite3_finalize(statement)
                return sqlite3_result_error(context, sqlite3_errmsg(formatter), -1)
            }
            defer { sqlite3_finalize(statement) }
            for (index, argument) in arguments.enumerated() { sqlite3_bind_value(statement, Int32(index + 1), argument) }
            switch sqlite3_step(statement) {
            case SQLITE_ROW: sqlite3_result_value(context, sqlite3_column_value(statement, 0))
            case SQLITE_TOOBIG: sqlite3_result_error_toobig(context)
            case SQLITE_NOMEM: sqlite3_result_error_nomem(context)
            default: sqlite3_result_error(context, sqlite3_errmsg(formatter), -1)
            }
        }
    }

    /// The sum of the widths and precisions of `template`'s conversions (`%10c`, `%.*c`, …), each
    /// a lower bound of its output; `argument(i)` is the integer of the i-th argument (0 is the
    /// template), which a `*` reads. Digits past the limit saturate.
    static func requestedWidth(of template: [UInt8], argument: (Int) -> Int64) -> Int {
        var total = 0
        var next = 1
        var index = 0
        func number() -> Int {
            if index < template.count, template[index] == UInt8(ascii: "*") {
                index += 1
                defer { next += 1 }
                let value = argument(next)
                return value == .min ? Int.max : Int(value.magnitude)
            }
            var value = 0
            while index < template.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(template[index]) {
                value = min(value * 10 + Int(template[index] - UInt8(ascii: "0")), Int(Int32.max))
                index += 1
            }
            return value
        }
        while index < template.count {
            guard template[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            index += 1
            while index < template.count, "-+ #!0,".utf8.contains(template[index]) { index += 1 }
            let width = number()
            var precision = 0
            if index < template.count, template[index] == UInt8(ascii: ".") {
                index += 1
                precision = number()
            }
            while index < template.count, template[index] == UInt8(ascii: "l") { index += 1 }
            guard index < template.count else { break }
            if template[index] != UInt8(ascii: "%") { next += 1 }
            index += 1
            total = total.addingReportingOverflow(max(width, precision)).overflow ? Int.max : total + max(width, precision)
        }
        return total
    }

    /// A value's bytes, as its UTF-8 text or as its blob.
    private static func bytes(_ value: OpaquePointer?, asText: Bool) -> [UInt8] {
        if asText {
            guard let text = sqlite3_value_text(value) else { return [] }
            return Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
        }
        guard let blob = sqlite3_value_blob(value) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(value))))
    }

    private func result(text: [UInt8], context: OpaquePointer) {
        guard text.count <= lengthLimit else { return sqlite3_result_error_toobig(context) }
        // SQLITE_TRANSIENT (-1): SQLite copies the bytes before this returns. One byte more, so
        // that an empty text has an address too.
        (text + [0]).withUnsafeBytes { buffer in
            sqlite3_result_text64(context, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), sqlite3_uint64(text.count),
                                  unsafeBitCast(-1, to: sqlite3_destructor_type.self), UInt8(SQLITE_UTF8))
        }
    }
}

/// Bytes to search for, by Knuth, Morris and Pratt's search: linear in the pattern and the text,
/// where comparing the pattern at each position is their product.
private struct BytePattern {
    let bytes: [UInt8]
    /// `fallback[i]`: the length of the longest proper prefix of `bytes[0...i]` that is also its suffix.
    private let fallback: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var fallback = [Int](repeating: 0, count: bytes.count)
        var matched = 0
        for index in bytes.indices.dropFirst() {
            while matched > 0, bytes[index] != bytes[matched] { matched = fallback[matched - 1] }
            if bytes[index] == bytes[matched] { matched += 1 }
            fallback[index] = matched
        }
        self.fallback = fallback
    }

    /// Where the first of these bytes starts in `text` at or after `start`; nil when nowhere or empty.
    func first(in text: [UInt8], from start: Int) -> Int? {
        var first: Int?
        forEach(in: text, from: start) { found in
            first = found
            return false
        }
        return first
    }

    /// Calls `body` with where each of these bytes starts in `text` from `start` on, left to
    /// right and not overlapping, while it answers true.
    func forEach(in text: [UInt8], from start: Int = 0, _ body: (Int) -> Bool) {
        guard !bytes.isEmpty, bytes.count <= text.count - start else { return }
        bytes.withUnsafeBufferPointer { pattern in
            fallback.withUnsafeBufferPointer { fallback in
                text.withUnsafeBufferPointer { text in
                    var matched = 0
                    for index in start..<text.count {
                        while matched > 0, text[index] != pattern[matched] { matched = fallback[matched - 1] }
                        if text[index] == pattern[matched] { matched += 1 }
                        if matched == pattern.count {
                            guard body(index - pattern.count + 1) else { return }
                            matched = 0
                        }
                    }
                }
            }
        }
    }
}
