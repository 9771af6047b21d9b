extension OutputBuffer {
    /// Writes `fields` as the inputs of a form: each wrapped in its `<label>`, so its name is read
    /// out and a click on the words focuses it, a text's limit said in words, with the constraints a browser checks before
    /// posting (`required`, `maxlength`, a number's step, a date's picker) so that most mistakes
    /// never leave the page, script or not. The server checks again (``FormField/checkedValues(_:against:)``).
    mutating func appendFormFields(_ fields: [FormField]) {
        for field in fields {
            if case .checkbox = field.kind {
                append("<label class=\"tk-form-field tk-form-checkbox\"><input type=\"checkbox\" name=\"")
                appendEscapedHTML(field.name)
                append(field.defaultValue == "true" ? "\" value=\"true\" checked><span>" : "\" value=\"true\"><span>")
                appendEscapedHTML(field.label)
                append("</span></label>")
                continue
            }
            append("<label class=\"tk-form-field\"><span>")
            appendEscapedHTML(field.label)
            append("</span>")
            switch field.kind {
            case .longText:
                appendFieldStart("<textarea", field)
                append(">")
                appendEscapedHTML(field.defaultValue)
                append("</textarea>")
            case .choice(let options):
                appendFieldStart("<select", field)
                append(">")
                for option in options {
                    append(option == field.defaultValue ? "<option selected>" : "<option>")
                    appendEscapedHTML(option)
                    append("</option>")
                }
                append("</select>")
            case .text, .integer, .number, .date, .checkbox:
                appendFieldStart("<input", field)
                switch field.kind {
                case .integer: append(" type=\"number\" step=\"1\" inputmode=\"numeric\"")
                case .number: append(" type=\"number\" step=\"any\" inputmode=\"decimal\"")
                case .date: append(" type=\"date\"")
                default: append(" type=\"text\"")
                }
                append(" value=\"")
                appendEscapedHTML(field.defaultValue)
                append("\">")
            }
            if let maxLength = field.maxLength, maxLength >= 0 {
                // In the label, so it is read with the field's name before anything is typed.
                append("<span class=\"tk-form-hint\">At most ")
                append(maxLength)
                append(maxLength == 1 ? " character</span>" : " characters</span>")
            }
            append("</label>")
        }
    }

    /// The tag's start with the attributes every kind shares: name, required, maxlength.
    private mutating func appendFieldStart(_ tag: StaticString, _ field: FormField) {
        append(tag)
        append(" name=\"")
        appendEscapedHTML(field.name)
        append("\"")
        if field.isRequired { append(" required") }
        if let maxLength = field.maxLength, maxLength >= 0 {
            append(" maxlength=\"")
            append(maxLength)
            append("\"")
        }
    }
}
