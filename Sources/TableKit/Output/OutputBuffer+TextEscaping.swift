extension OutputBuffer {
    /// Appends text escaped for `escaping`.
    mutating func appendEscaped(_ text: String, for escaping: TextEscaping) {
        switch escaping {
        case .html: appendEscapedHTML(text)
        case .json: appendEscapedJSON(text)
        }
    }
}
