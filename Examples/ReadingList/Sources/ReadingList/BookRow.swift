import TablePages

/// A book's row: a link to the book's page, for every viewer, and its cover, which this process
/// "loads" in the background the first time the row is shown, then hands to the row through the
/// table's updater. The row keeps its cover across re-reads, since its section keeps the row.
final class BookRow: ObservedRow<Book> {
    private var cover: String?
    private var isLoadingCover = false

    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        if cover == nil, !isLoadingCover, let updater = tableContext?.updater {
            isLoadingCover = true
            let id = rowID(forRowAt: indexPath)
            Task {
                // A download would go here.
                try await Task.sleep(for: .milliseconds(300))
                updater.updateRow(id, of: BookRow.self) { row in row.cover = "/public/reading/cover.svg" }
            }
        }
        return TableCell(Self.kind, CellContent(
            title: item.title, subtitle: item.author,
            image: .init(url: cover ?? "/public/reading/blank.svg", alt: "", size: .init(width: 40, height: 60)),
            badge: cover == nil ? "cover loading" : nil
        ))
    }

    override func linkForRow(at indexPath: TableIndexPath) -> String? { "/pages/book?id=\(item.id)" }

    /// The cell of a book: its cover beside its title and author, and a badge while the cover
    /// loads. The `tk-` classes are the library's stylesheet's; every text is escaped.
    static let kind = CellKind(reuseIdentifier: "book") { content, out in
        out.append("<img class=\"tk-image\" alt=\"\" width=\"40\" height=\"60\" src=\"")
        out.appendEscapedHTML(content.image?.url ?? "")
        out.append("\"><span class=\"tk-caption\"><span class=\"tk-title\">")
        out.appendEscapedHTML(content.title ?? "")
        out.append("</span><span class=\"tk-subtitle\">")
        out.appendEscapedHTML(content.subtitle ?? "")
        out.append("</span></span>")
        if let badge = content.badge {
            out.append("<span class=\"tk-badge\">")
            out.appendEscapedHTML(badge)
            out.append("</span>")
        }
    }

    /// The cover a book shows until its own has "loaded", and the one it gets then.
    static let blankCover = svg(fill: "#d8d8d8"), cover = svg(fill: "#2a5a7a")

    private static func svg(fill: String) -> [UInt8] {
        Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="60" viewBox="0 0 40 60">\
            <rect width="40" height="60" rx="3" fill="\(fill)"/><rect x="6" y="8" width="28" height="4" fill="#f4ead8"/></svg>
            """.utf8)
    }
}
