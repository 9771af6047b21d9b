/// The context a piece of text is written into, which decides how it is escaped.
enum TextEscaping {
    /// An HTML attribute value or text.
    case html
    /// The inside of a JSON string literal.
    case json
}
