/// Writes a table as the JSON document described on ``TableRenderer``.
struct JSONEmitter: TableEmitter {
    let context: RenderContext
    private var sectionsWritten = 0
    private var rowsWritten = 0

    init(context: RenderContext) {
        self.context = context
    }

    mutating func beginTable(title: String?, version: Int, index: [SectionIndexEntry], into out: inout OutputBuffer) {
        out.append("{\"title\":")
        out.appendJSONString(title)
        out.append(",\"version\":")
        out.append(version)
        if !index.isEmpty {
            out.append(",\"sectionIndex\":[")
            for (position, entry) in index.enumerated() {
                out.append(position == 0 ? "{\"title\":" : ",{\"title\":")
                out.appendJSONString(entry.title)
                out.append(",\"section\":")
                out.appendJSONString(entry.section.rawValue)
                out.append("}")
            }
            out.append("]")
        }
        out.append(",\"sections\":[")
    }

    mutating func endTable(into out: inout OutputBuffer) {
        // Sections are not paged yet; the key is part of the format so clients can rely on it.
        out.append("],\"next\":null}")
    }

    mutating func beginSection(_ section: SectionRecord, into out: inout OutputBuffer) {
        out.append(sectionsWritten == 0 ? "{\"id\":" : ",{\"id\":")
        sectionsWritten += 1
        rowsWritten = 0
        out.appendJSONString(section.id.rawValue)
        out.append(",\"header\":")
        out.appendJSONString(section.headerTitle)
        out.append(",\"footer\":")
        out.appendJSONString(section.footerTitle)
        if let view = section.headerView {
            out.append(",\"headerView\":")
            appendCell(view, into: &out)
        }
        if let view = section.footerView {
            out.append(",\"footerView\":")
            appendCell(view, into: &out)
        }
        if let height = section.headerHeight.explicitPoints {
            out.append(",\"headerHeight\":")
            out.append(height)
        }
        if let height = section.footerHeight.explicitPoints {
            out.append(",\"footerHeight\":")
            out.append(height)
        }
        out.append(",\"rowCount\":")
        out.append(section.rowCount)
        out.append(",\"rows\":[")
    }

    mutating func endSection(_ section: SectionRecord, next: NextPage?, into out: inout OutputBuffer) {
        out.append("],\"next\":")
        if let next {
            out.append("\"")
            context.appendNextURL(next, escaping: .json, into: &out)
            out.append("\"}")
        } else {
            out.append("null}")
        }
    }

    mutating func row(_ row: RowRecord, at indexPath: IndexPath, in section: SectionRecord, into out: inout OutputBuffer) {
        out.append(rowsWritten == 0 ? "{\"id\":" : ",{\"id\":")
        rowsWritten += 1
        out.appendJSONString(row.id.rawValue)
        out.append(",\"kind\":")
        out.appendJSONString(row.cell.reuseIdentifier)
        out.append(",\"height\":")
        appendHeight(row.height, into: &out)
        if let estimated = row.estimatedHeight {
            out.append(",\"estimatedHeight\":")
            appendHeight(estimated, into: &out)
        }
        if row.indentationLevel != 0 {
            out.append(",\"indentationLevel\":")
            out.append(row.indentationLevel)
        }
        appendContentFields(row.cell.content, into: &out)
        if !row.isSelectable {
            out.append(",\"selectable\":false")
        }
        if row.editingStyle != .none {
            out.append(",\"editingStyle\":")
            out.appendJSONString(row.editingStyle.rawValue)
        }
        if let title = row.deleteConfirmationTitle {
            out.append(",\"deleteTitle\":")
            out.appendJSONString(title)
        }
        if row.canMove {
            out.append(",\"movable\":true")
        }
        if !row.actions.isEmpty {
            out.append(",\"actions\":[")
            for (position, action) in row.actions.enumerated() {
                out.append(position == 0 ? "{\"name\":" : ",{\"name\":")
                out.appendJSONString(action.name)
                out.append(",\"title\":")
                out.appendJSONString(action.title)
                out.append(",\"style\":")
                out.appendJSONString(action.style.rawValue)
                out.append("}")
            }
            out.append("]")
        }
        out.append("}")
    }

    // MARK: Parts

    private func appendCell(_ cell: TableCell, into out: inout OutputBuffer) {
        out.append("{\"kind\":")
        out.appendJSONString(cell.reuseIdentifier)
        appendContentFields(cell.content, into: &out)
        out.append("}")
    }

    /// `null` for automatic, else the number of pixels.
    private func appendHeight(_ height: TableHeight, into out: inout OutputBuffer) {
        switch height {
        case .automatic: out.append("null")
        case .points(let points): out.append(points)
        }
    }

    /// The content's fields that have a value, each preceded by a comma.
    private func appendContentFields(_ content: CellContent, into out: inout OutputBuffer) {
        appendField(",\"title\":", content.title, into: &out)
        appendField(",\"subtitle\":", content.subtitle, into: &out)
        appendField(",\"detail\":", content.detail, into: &out)
        if content.accessory != .none {
            out.append(",\"accessory\":")
            out.appendJSONString(content.accessory.rawValue)
        }
        if let image = content.image {
            out.append(",\"image\":{\"url\":")
            out.appendJSONString(image.url)
            out.append(",\"alt\":")
            out.appendJSONString(image.alt)
            if let size = image.size {
                out.append(",\"width\":")
                out.append(size.width)
                out.append(",\"height\":")
                out.append(size.height)
            }
            out.append("}")
        }
        appendField(",\"badge\":", content.badge, into: &out)
        if !content.fields.isEmpty {
            out.append(",\"fields\":{")
            for (position, field) in content.fields.enumerated() {
                if position > 0 {
                    out.append(",")
                }
                out.appendJSONString(field.name)
                out.append(":")
                out.appendJSONString(field.value)
            }
            out.append("}")
        }
    }

    private func appendField(_ key: StaticString, _ value: String?, into out: inout OutputBuffer) {
        guard let value else { return }
        out.append(key)
        out.appendJSONString(value)
    }
}
