/// Writes a table as the JSON document described on ``TableRenderer``.
struct JSONEmitter: TableEmitter {
    let context: RenderContext
    private var sectionsWritten = 0
    private var rowsWritten = 0
    /// The `next` of the first section that has more rows, which the top-level `next` repeats.
    private var firstNext: NextPage?

    init(context: RenderContext) {
        self.context = context
    }

    mutating func beginTable(_ heading: TableHeading, into out: inout OutputBuffer) {
        out.append("{\"title\":")
        out.appendJSONString(heading.title)
        out.append(",\"version\":")
        out.append(heading.version)
        if !heading.index.isEmpty {
            out.append(",\"sectionIndex\":[")
            for (position, entry) in heading.index.enumerated() {
                out.append(position == 0 ? "{\"title\":" : ",{\"title\":")
                out.appendJSONString(entry.title)
                out.append(",\"section\":")
                out.appendJSONString(entry.section.rawValue)
                out.append("}")
            }
            out.append("]")
        }
        if let view = heading.headerView {
            out.append(",\"headerView\":")
            appendCell(view, into: &out)
        }
        for property in heading.properties where !Self.documentMembers.contains(property.name) {
            out.append(",")
            out.appendJSONString(property.name)
            out.append(":")
            Self.appendValue(property.value, into: &out)
        }
        out.append(",\"sections\":[")
    }

    /// The members the document writes itself, which a table's own members may not repeat.
    private static let documentMembers: Set<String> = ["title", "version", "sectionIndex", "headerView", "sections", "next"]

    mutating func endTable(into out: inout OutputBuffer) {
        // A script reading only the top level still learns that rows follow: the first paged
        // section's link (on a page of one section, the page's own next rows).
        guard let firstNext else {
            out.append("],\"next\":null}")
            return
        }
        out.append("],\"next\":\"")
        context.appendNextURL(firstNext, escaping: .json, asJSON: true, into: &out)
        out.append("\"}")
    }

    mutating func beginSection(_ section: SectionRecord, into out: inout OutputBuffer) {
        out.append(sectionsWritten == 0 ? "{\"id\":" : ",{\"id\":")
        sectionsWritten += 1
        rowsWritten = 0
        out.appendJSONString(section.id.rawValue)
        out.append(",\"header\":")
        out.appendJSONString(section.headerTitle)
        out.append(",\"footer\":")
        out.appendJSONString(section.footerTitle(showingControls: context.showsControls))
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
            if firstNext == nil {
                firstNext = next
            }
            out.append("\"")
            context.appendNextURL(next, escaping: .json, asJSON: true, into: &out)
            out.append("\"}")
        } else {
            out.append("null}")
        }
    }

    mutating func row(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer) {
        writeRow(row, id: row.id, into: &out) { $0.write(fieldsOf: row.cell) }
    }

    mutating func row(
        like template: RowRecord, id: RowID, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer,
        fields: (inout JSONFieldWriter) -> Void
    ) -> Bool {
        writeRow(template, id: id, into: &out, fields: fields)
        return true
    }

    /// Writes `row` with the id `id` and the fields `fields` writes, in place of its own.
    private mutating func writeRow(_ row: RowRecord, id: RowID, into out: inout OutputBuffer, fields: (inout JSONFieldWriter) -> Void) {
        let isFirst = rowsWritten == 0
        rowsWritten += 1
        let content = row.cell.content
        // This runs for every row, and appending piece by piece cost more than the bytes
        // themselves: the common fields go in two reservations (see ByteWriter).
        let headCount = 160 + 2 * ByteWriter.maxNumberCount + ByteWriter.maxDecimalCount
            + ByteWriter.maxEscapedCount(id.rawValue) + ByteWriter.maxEscapedCount(row.cell.reuseIdentifier)
            + Self.maxTextFieldsCount(content)
        out.append(maxCount: headCount) { out in
            out.write(isFirst ? "{\"id\":" : ",{\"id\":")
            out.writeJSONString(id.rawValue)
            out.write(",\"kind\":")
            out.writeJSONString(row.cell.reuseIdentifier)
            out.write(",\"height\":")
            writeHeight(row.height, into: &out)
            if let estimated = row.estimatedHeight {
                out.write(",\"estimatedHeight\":")
                writeHeight(estimated, into: &out)
            }
            if row.indentationLevel != 0 {
                out.write(",\"indentationLevel\":")
                out.write(row.indentationLevel)
            }
            writeTextFields(content, into: &out)
        }
        appendOtherContentFields(content, into: &out, fields: fields)
        let tailCount = 128 + ByteWriter.maxEscapedCount(row.deleteConfirmationTitle ?? "") + ByteWriter.maxEscapedCount(row.link ?? "")
        out.append(maxCount: tailCount) { out in
            if let link = row.link {
                out.write(",\"link\":")
                out.writeJSONString(link)
            }
            if !row.isSelectable {
                out.write(",\"selectable\":false")
            }
            if row.editingStyle != .none {
                out.write(",\"editingStyle\":")
                out.writeJSONString(row.editingStyle.rawValue)
            }
            if let title = row.deleteConfirmationTitle {
                out.write(",\"deleteTitle\":")
                out.writeJSONString(title)
            }
            if row.canMove {
                out.write(",\"movable\":true")
            }
            if row.actions.isEmpty {
                out.write("}")
            }
        }
        guard !row.actions.isEmpty else { return }
        out.append(",\"actions\":[")
        for (position, action) in row.actions.enumerated() {
            out.append(position == 0 ? "{\"name\":" : ",{\"name\":")
            out.appendJSONString(action.name)
            out.append(",\"title\":")
            out.appendJSONString(action.title)
            out.append(",\"style\":")
            out.appendJSONString(action.style.rawValue)
            if let field = action.field {
                out.append(",\"field\":{\"name\":")
                out.appendJSONString(field.name)
                out.append(",\"placeholder\":")
                out.appendJSONString(field.placeholder)
                out.append(",\"value\":")
                out.appendJSONString(field.value)
                if let maxLength = field.maxLength {
                    out.append(",\"maxLength\":")
                    out.append(maxLength)
                }
                out.append("}")
            }
            out.append("}")
        }
        out.append("]}")
    }

    // MARK: Parts

    /// A cell's JSON object, as in a page's `headerView`.
    func appendCell(_ cell: TableCell, into out: inout OutputBuffer) {
        out.append(maxCount: 16 + ByteWriter.maxEscapedCount(cell.reuseIdentifier) + Self.maxTextFieldsCount(cell.content)) { out in
            out.write("{\"kind\":")
            out.writeJSONString(cell.reuseIdentifier)
            writeTextFields(cell.content, into: &out)
        }
        appendOtherContentFields(cell.content, into: &out) { $0.write(fieldsOf: cell) }
        out.append("}")
    }

    /// `null` for automatic, else the number of pixels.
    private func writeHeight(_ height: TableHeight, into out: inout ByteWriter) {
        switch height {
        case .automatic: out.write("null")
        case .points(let points): out.write(points)
        }
    }

    /// The most bytes ``writeTextFields(_:into:)`` writes.
    private static func maxTextFieldsCount(_ content: CellContent) -> Int {
        96 + ByteWriter.maxEscapedCount(content.title ?? "") + ByteWriter.maxEscapedCount(content.subtitle ?? "")
            + ByteWriter.maxEscapedCount(content.detail ?? "") + ByteWriter.maxEscapedCount(content.accessory.rawValue)
    }

    /// The content's title, subtitle, detail and accessory that have a value, each preceded by a
    /// comma; the first of the content's fields, which ``appendOtherContentFields(_:into:)`` ends.
    private func writeTextFields(_ content: CellContent, into out: inout ByteWriter) {
        writeField(",\"title\":", content.title, into: &out)
        writeField(",\"subtitle\":", content.subtitle, into: &out)
        writeField(",\"detail\":", content.detail, into: &out)
        if content.accessory != .none {
            out.write(",\"accessory\":")
            out.writeJSONString(content.accessory.rawValue)
        }
    }

    private func writeField(_ key: StaticString, _ value: String?, into out: inout ByteWriter) {
        guard let value else { return }
        out.write(key)
        out.writeJSONString(value)
    }

    /// The content's image, badge, fields (those `fields` writes) and typed values that have a
    /// value, each preceded by a comma; they follow ``writeTextFields(_:into:)``.
    private func appendOtherContentFields(_ content: CellContent, into out: inout OutputBuffer, fields: (inout JSONFieldWriter) -> Void) {
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
        if let badge = content.badge {
            out.append(",\"badge\":")
            out.appendJSONString(badge)
        }
        // The output moves into the writer and back: a swap of two arrays, no copy.
        var writer = JSONFieldWriter(out: OutputBuffer(capacity: 0))
        swap(&writer.out, &out)
        fields(&writer)
        writer.finish()
        swap(&writer.out, &out)
        for property in content.jsonProperties where !Self.rowMembers.contains(property.name) {
            out.append(",")
            out.appendJSONString(property.name)
            out.append(":")
            Self.appendValue(property.value, into: &out)
        }
    }

    /// The members a row's (or a cell's) object writes itself, which its typed values may not repeat:
    /// a client reading `title` must get the display text whatever a provider names its values.
    private static let rowMembers: Set<String> = [
        "id", "kind", "height", "estimatedHeight", "indentationLevel", "title", "subtitle", "detail", "accessory",
        "image", "badge", "fields", "link", "selectable", "editingStyle", "deleteTitle", "movable", "actions",
    ]

    /// Writes `value` as JSON, recursively.
    static func appendValue(_ value: JSONValue, into out: inout OutputBuffer) {
        switch value {
        case .null: out.append("null")
        case .bool(let value): out.append(value ? "true" : "false")
        case .integer(let value): out.append(Int(value))
        case .number(let value) where value.isFinite: out.append(value)
        case .number: out.append("null")
        case .string(let text): out.appendJSONString(text)
        case .array(let values):
            out.append("[")
            for (position, element) in values.enumerated() {
                if position > 0 {
                    out.append(",")
                }
                Self.appendValue(element, into: &out)
            }
            out.append("]")
        case .object(let members):
            out.append("{")
            for (position, member) in members.enumerated() {
                if position > 0 {
                    out.append(",")
                }
                out.appendJSONString(member.name)
                out.append(":")
                Self.appendValue(member.value, into: &out)
            }
            out.append("}")
        }
    }
}
