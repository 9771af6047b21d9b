import TableStore

extension SQLValue {
    /// Whether this is text holding U+0000, which a write refuses rather than store cut short:
    /// GRDB binds and reads SQLite's text as C strings, and PostgreSQL's text cannot hold it.
    var isTextHoldingNUL: Bool {
        if case .text(let text) = self { text.utf8.contains(0) } else { false }
    }
}
