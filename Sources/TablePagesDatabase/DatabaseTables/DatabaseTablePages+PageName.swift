import Escaping

extension DatabaseTablePages {
    /// The name of the page that shows the table (or view) `table`: its own name, unless
    /// TablePages' own pages are named like it — the live SQL page (`-/sql`) and the canned
    /// queries (`queries/{name}`) — then its tilde-encoded name, so that the table still has a page
    /// of its own (`/pages/-~7E2Fsql` for a table named `-/sql`) and the built-in page keeps its URL.
    ///
    ///     DatabaseTablePages.pageName(ofTable: "orders")        // "orders"
    ///     DatabaseTablePages.pageName(ofTable: "queries/top")   // "queries~2Ftop"
    ///
    /// A name that tilde-decodes to such a name is encoded too, so no two tables share a page: a
    /// table named `queries~2Ftop` beside one named `queries/top` is `queries~7E2Ftop`.
    public static func pageName(ofTable table: String) -> String {
        isReserved(table) ? TildeEncoding.encode(table) : table
    }

    /// Whether a table named `name` would take (or be taken for) one of TablePages' own pages.
    private static func isReserved(_ name: String) -> Bool {
        if name.hasPrefix("-/") || name.hasPrefix("queries/") { return true }
        guard let decoded = TildeEncoding.decode(name), decoded != name else { return false }
        return isReserved(decoded)
    }
}
