extension FormField {
    /// `values` as a form of `fields` delivers them: one value per field, in the form its
    /// ``Kind`` describes, an optional field left empty given its ``defaultValue``, and keys that
    /// name no field left out.
    ///
    ///     let checked = try FormField.checkedValues(["title": "Dune", "pages": "412"], against: fields)
    /// - Throws: ``FormFieldProblem`` for the first field, in `fields`' order, whose value does not fit.
    public static func checkedValues(_ values: [String: String], against fields: [FormField]) throws(FormFieldProblem) -> [String: String] {
        var checked: [String: String] = [:]
        for field in fields {
            checked[field.name] = try field.checkedValue(values[field.name])
        }
        return checked
    }

    /// The value this field delivers for `submitted` (nil: not sent at all).
    func checkedValue(_ submitted: String?) throws(FormFieldProblem) -> String {
        if case .checkbox = kind { return try checkedFlag(submitted) }
        let given = submitted ?? ""
        guard given.contains(where: { !$0.isWhitespace }) else {
            if isRequired { throw problem("Fill in \(quotedLabel).") }
            return defaultValue
        }
        try checkLength(given)
        let trimmed = given.trimmingWhitespace
        switch kind {
        case .text, .longText:
            return given
        case .integer:
            guard let integer = Int64(trimmed) else { throw problem("\(quotedLabel) must be a whole number, such as 12.") }
            return String(integer)
        case .number:
            guard let number = Double(trimmed), number.isFinite else { throw problem("\(quotedLabel) must be a number, such as 2.5.") }
            return String(number)
        case .date:
            guard Self.isDate(trimmed) else { throw problem("\(quotedLabel) must be a date written YYYY-MM-DD, such as 2026-03-31.") }
            return trimmed
        case .choice(let options):
            guard options.contains(given) else {
                throw problem("\(quotedLabel) must be one of the choices offered: \(options.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")).")
            }
            return given
        case .checkbox:
            return try checkedFlag(submitted)
        }
    }

    /// Refuses `text` when it is longer than ``maxLength``, with a problem that says the limit.
    func checkLength(_ text: String) throws(FormFieldProblem) {
        guard let maxLength else { return }
        let length = Self.length(of: text)
        if length > maxLength {
            throw problem("\(quotedLabel) may have at most \(maxLength) characters; this one has \(length).")
        }
    }

    /// `text`'s length as a browser measures it against `maxlength`: UTF-16 code units, with a line
    /// break that a form sends as CR LF counted once (the browser counts it before it is sent, as LF).
    ///
    ///     FormField.length(of: "née 👍") // 6
    public static func length(of text: String) -> Int {
        var length = 0
        var afterCarriageReturn = false
        for unit in text.utf16 {
            defer { afterCarriageReturn = unit == 0x0D }
            if unit == 0x0A && afterCarriageReturn { continue }
            length += 1
        }
        return length
    }

    /// A browser sends a checked box as `on` and an unchecked one not at all; scripts may send words.
    private func checkedFlag(_ submitted: String?) throws(FormFieldProblem) -> String {
        switch submitted?.trimmingWhitespace.lowercased() {
        case nil, "", "false", "0", "off", "no": "false"
        case "on", "true", "1", "yes": "true"
        default: throw problem("\(quotedLabel) is a checkbox: send “true” or “false”.")
        }
    }

    private var quotedLabel: String { "\u{201C}\(label)\u{201D}" }

    private func problem(_ message: String) -> FormFieldProblem { FormFieldProblem(field: name, message: message) }

    /// Whether `text` is a date of the proleptic Gregorian calendar written `YYYY-MM-DD`, as a
    /// browser's date input sends it.
    package static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month) else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}

private extension String {
    /// The text without the whitespace at either end.
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
