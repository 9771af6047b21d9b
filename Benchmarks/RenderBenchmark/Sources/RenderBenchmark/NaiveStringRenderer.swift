import TableKit

/// The same-run peer: builds the same rows' HTML by String concatenation with per-Character
/// escaping, the approach TableKit's byte writer replaces.
struct NaiveStringRenderer {
    let table: TableAdapter
    let basePath: String

    func renderPage() -> [UInt8] {
        var html = "<main class=\"tk-table\">"
        for section in 0..<table.numberOfSections {
            html += "<section class=\"tk-section\" data-section=\"" + escape(table.sectionID(at: section)?.rawValue ?? "") + "\"><ul class=\"tk-rows\">"
            for row in 0..<table.numberOfRows(inSection: section) {
                let record = table.rowRecord(at: TableIndexPath(section: section, row: row))
                let id = escape(record.id.rawValue)
                html += "<li id=\"row-" + id + "\" class=\"tk-row\" data-row=\"" + id + "\" data-kind=\"" + escape(record.cell.reuseIdentifier) + "\">"
                html += "<form class=\"tk-select\" method=\"post\" action=\"" + escape(basePath) + "/rows/" + id + "/select\">"
                html += "<button type=\"submit\" class=\"tk-cell\"><span class=\"tk-text\"><span class=\"tk-title\">" + escape(record.cell.content.title ?? "") + "</span>"
                html += "<span class=\"tk-subtitle\">" + escape(record.cell.content.subtitle ?? "") + "</span></span>"
                html += "<span class=\"tk-detail\">" + escape(record.cell.content.detail ?? "") + "</span></button></form></li>"
            }
            html += "</ul></section>"
        }
        html += "</main>"
        return Array(html.utf8)
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
