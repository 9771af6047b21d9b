/// Writes a table as semantic HTML that works without JavaScript: a `<section>` per section
/// with `<header>`/`<footer>`, and forms for selection and editing.
///
/// A section's rows are an ARIA table (`role="table"`, labelled by the section's title) of
/// `role="row"` elements, each of them one `role="cell"` for the cell (or, for a kind that
/// ``CellKind/writesCells``, the cells it writes) and one for its controls, so assistive
/// technology reads rows and cells as a table. They are `<div>`s rather than
/// `<table>`/`<tr>`: a row's cell is laid out freely by its kind, and a `<ul>` or `<li>` may not
/// take these roles.
struct HTMLEmitter: TableEmitter {
    let context: RenderContext
    let table: TableAdapter
    // Rows of a page mostly share one kind; remembering the last one skips a dictionary lookup per row.
    private var lastKind: CellKind?

    init(context: RenderContext, table: TableAdapter) {
        self.context = context
        self.table = table
    }

    mutating func beginTable(_ heading: TableHeading, into out: inout OutputBuffer) {
        // `id="table"` is where the page's skip link leads.
        out.append("<main id=\"table\" class=\"tk-table\" data-version=\"")
        out.append(heading.version)
        out.append("\">")
        if let title = heading.title {
            out.append("<h1 class=\"tk-title\">")
            out.appendEscapedHTML(title)
            out.append("</h1>")
        }
        if let view = heading.headerView {
            tableHeader(view, into: &out)
        }
        guard !heading.index.isEmpty else { return }
        out.append("<nav class=\"tk-index\" aria-label=\"Section index\">")
        for entry in heading.index {
            out.append("<a href=\"#section-")
            out.appendDOMIDPart(entry.section.rawValue)
            out.append("\">")
            out.appendEscapedHTML(entry.title)
            out.append("</a>")
        }
        out.append("</nav>")
    }

    /// The `<header id="table-header">` of a table's header view, on a page or in a patch.
    mutating func tableHeader(_ view: TableCell, into out: inout OutputBuffer) {
        out.append("<header id=\"table-header\" class=\"tk-table-header\">")
        appendStaticCell(view, into: &out)
        out.append("</header>")
    }

    mutating func endTable(into out: inout OutputBuffer) {
        out.append("</main>")
    }

    mutating func beginSection(_ section: SectionRecord, into out: inout OutputBuffer) {
        let labelled = section.headerView == nil && section.headerTitle != nil
        out.append("<section id=\"section-")
        out.appendDOMIDPart(section.id.rawValue)
        out.append("\" class=\"tk-section\" data-section=\"")
        out.appendEscapedHTML(section.id.rawValue)
        if labelled {
            out.append("\" aria-labelledby=\"section-")
            out.appendDOMIDPart(section.id.rawValue)
            out.append("-header")
        }
        out.append("\">")
        if let view = section.headerView {
            out.append("<header class=\"tk-header\"")
            appendHeight(section.headerHeight, estimated: nil, into: &out)
            out.append(">")
            appendStaticCell(view, into: &out)
            out.append("</header>")
        } else if let title = section.headerTitle {
            out.append("<header class=\"tk-header\"")
            appendHeight(section.headerHeight, estimated: nil, into: &out)
            out.append("><h2 id=\"section-")
            out.appendDOMIDPart(section.id.rawValue)
            out.append("-header\">")
            out.appendEscapedHTML(title)
            out.append("</h2></header>")
        }
        out.append("<div class=\"tk-rows\" role=\"table\"")
        if labelled {
            out.append(" aria-labelledby=\"section-")
            out.appendDOMIDPart(section.id.rawValue)
            out.append("-header\"")
        }
        out.append(">")
    }

    mutating func endSection(_ section: SectionRecord, next: NextPage?, into out: inout OutputBuffer) {
        out.append("</div>")
        if let next {
            nextLink(next, into: &out)
        }
        if let view = section.footerView {
            out.append("<footer class=\"tk-footer\"")
            appendHeight(section.footerHeight, estimated: nil, into: &out)
            out.append(">")
            appendStaticCell(view, into: &out)
            out.append("</footer>")
        } else if let title = section.footerTitle(showingControls: context.showsControls) {
            out.append("<footer class=\"tk-footer\"")
            appendHeight(section.footerHeight, estimated: nil, into: &out)
            out.append("><p>")
            out.appendEscapedHTML(title)
            out.append("</p></footer>")
        }
        out.append("</section>")
    }

    /// A section's `<a class="tk-next">`, on a page or in a patch.
    func nextLink(_ next: NextPage, into out: inout OutputBuffer) {
        out.append("<a class=\"tk-next\" rel=\"next\" href=\"")
        context.appendNextURL(next, escaping: .html, into: &out)
        out.append("\" data-remaining=\"")
        out.append(next.remaining)
        out.append("\"")
        if let height = next.estimatedRowHeight?.explicitPoints {
            out.append(" data-estimated-row-height=\"")
            out.append(height)
            out.append("\"")
        }
        out.append(">More rows</a>")
    }

    mutating func row(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer) {
        // A link is for every viewer; a "select" button only for those who may act.
        let wrap: CellWrap = row.link != nil ? .link
            : context.showsControls && row.isSelectable && row.editingStyle != .insert ? .select : .none
        // Everything before the cell's content goes in one reservation: this runs for every row,
        // and appending piece by piece cost more than the bytes themselves (see ByteWriter).
        var maxCount = 256 + Self.maxHeightCount
            + PageContract.maxDOMIDPartCount(row.id.rawValue) + ByteWriter.maxEscapedCount(row.id.rawValue) + ByteWriter.maxEscapedCount(row.cell.reuseIdentifier)
        switch wrap {
        case .select: maxCount += 192 + context.maxRowURLCount(row.id, suffix: PageContract.selectPath)
        case .link: maxCount += 96 + ByteWriter.maxEscapedCount(row.link ?? "")
        case .none: break
        }
        out.append(maxCount: maxCount) { out in
            out.write("<div id=\"row-")
            out.writeDOMIDPart(row.id.rawValue)
            out.write("\" class=\"tk-row\" data-row=\"")
            out.writeEscapedHTML(row.id.rawValue)
            out.write("\" data-kind=\"")
            out.writeEscapedHTML(row.cell.reuseIdentifier)
            out.write("\"")
            writeHeight(row.height, estimated: row.estimatedHeight, into: &out)
            if row.indentationLevel > 0 {
                out.write(" data-indent=\"")
                out.write(row.indentationLevel)
                out.write("\"")
            }
            // An insert row is a form to add a row, and nothing without it: hidden from a viewer
            // who may not write, yet kept, so that patches find every row they name.
            out.write(row.editingStyle == .insert && !context.showsControls ? " role=\"row\" hidden>" : " role=\"row\">")
            switch wrap {
            case .select:
                out.write("<div class=\"tk-select-cell\" role=\"cell\"><form class=\"tk-select\" method=\"post\" action=\"")
                context.writeRowURL(row.id, suffix: PageContract.selectPath, into: &out)
                out.write("\"><button type=\"submit\" class=\"tk-cell\">")
            case .link:
                out.write("<div class=\"tk-select-cell\" role=\"cell\"><a class=\"tk-cell tk-link\" href=\"")
                out.writeEscapedHTML(row.link ?? "")
                out.write("\">")
            case .none:
                break
            }
        }
        if wrap == .none {
            appendStaticCell(row.cell, placement: CellPlacement(context: context, row: row.id), isTableCell: true, into: &out)
        } else {
            kind(for: row.cell.reuseIdentifier).renderPlaced(row.cell.content, CellPlacement(context: context, row: row.id), &out)
        }
        let close: StaticString = switch wrap {
        case .select: "</button></form></div>"
        case .link: "</a></div>"
        case .none: ""
        }
        guard hasEditControls(row) else {
            // The usual row: close it in one append.
            out.append(maxCount: 32) { $0.write(close); $0.write("</div>") }
            return
        }
        out.append(close)
        appendEditControls(row, at: indexPath, in: section, into: &out)
        out.append("</div>")
    }

    /// What a row's cell is wrapped in.
    private enum CellWrap {
        /// A "select" button in a form.
        case select
        /// A link to the row's ``RowRecord/link``.
        case link
        /// Nothing: the cell alone.
        case none
    }

    // MARK: Parts

    private mutating func kind(for reuseIdentifier: String) -> CellKind {
        if let lastKind, lastKind.reuseIdentifier == reuseIdentifier {
            return lastKind
        }
        let kind = table.cellKinds.kind(for: reuseIdentifier)
        lastKind = kind
        return kind
    }

    /// `isTableCell`: the cell of a row, so one of its table's cells; a header or footer view is not.
    private mutating func appendStaticCell(
        _ cell: TableCell, placement: CellPlacement = .unplaced, isTableCell: Bool = false, into out: inout OutputBuffer
    ) {
        let kind = kind(for: cell.reuseIdentifier)
        switch (isTableCell, kind.writesCells) {
        case (true, false): out.append("<div class=\"tk-cell\" role=\"cell\" data-kind=\"")
        case (true, true): out.append("<div class=\"tk-cell\" role=\"none\" data-kind=\"")
        case (false, _): out.append("<div class=\"tk-cell\" data-kind=\"")
        }
        out.appendEscapedHTML(cell.reuseIdentifier)
        out.append("\">")
        kind.renderPlaced(cell.content, placement, &out)
        out.append("</div>")
    }

    private func appendHeight(_ height: TableHeight, estimated: TableHeight?, into out: inout OutputBuffer) {
        out.append(maxCount: Self.maxHeightCount) { writeHeight(height, estimated: estimated, into: &$0) }
    }

    /// The most bytes ``writeHeight(_:estimated:into:)`` writes.
    private static let maxHeightCount = 64 + 2 * ByteWriter.maxNumberCount

    private func writeHeight(_ height: TableHeight, estimated: TableHeight?, into out: inout ByteWriter) {
        if let points = height.explicitPoints {
            out.write(" data-height=\"")
            out.write(points)
            out.write("\"")
        }
        if let points = estimated?.explicitPoints {
            out.write(" data-estimated-height=\"")
            out.write(points)
            out.write("\"")
        }
    }

    private func hasEditControls(_ row: RowRecord) -> Bool {
        context.showsControls && (row.editingStyle != .none || row.canMove || !row.actions.isEmpty)
    }

    private func appendEditControls(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer) {
        guard hasEditControls(row) else { return }
        out.append("<div class=\"tk-edit\" role=\"cell\">")
        switch row.editingStyle {
        case .delete:
            out.append("<form class=\"tk-delete\" method=\"post\" action=\"")
            context.appendRowURL(row.id, suffix: "", into: &out)
            out.append("\"><input type=\"hidden\" name=\"")
            out.appendUnescaped(PageContract.Field.method)
            out.append("\" value=\"")
            out.appendUnescaped(PageContract.Field.deleteMethod)
            out.append("\"><button type=\"submit\">")
            out.appendEscapedHTML(row.deleteConfirmationTitle ?? "Delete")
            out.append("</button></form>")
        case .insert where !section.insertFields.isEmpty:
            out.append("<form class=\"tk-insert tk-form\" method=\"post\" action=\"")
            context.appendInsertURL(section.id, into: &out)
            out.append("\" aria-label=\"")
            out.appendEscapedHTML(row.cell.content.title ?? "New row")
            out.append("\">")
            out.appendFormFields(section.insertFields)
            out.append("<button type=\"submit\">Add</button></form>")
        case .insert:
            out.append("<form class=\"tk-insert\" method=\"post\" action=\"")
            context.appendInsertURL(section.id, into: &out)
            out.append("\"><input type=\"text\" name=\"")
            out.appendUnescaped(PageContract.Field.title)
            out.append("\" required aria-label=\"")
            out.appendEscapedHTML(row.cell.content.title ?? "New row")
            out.append("\"><button type=\"submit\">Add</button></form>")
        case .none:
            break
        }
        for action in row.actions {
            out.append(action.fields.isEmpty ? "<form class=\"tk-action\" method=\"post\" action=\"" : "<form class=\"tk-action tk-form\" method=\"post\" action=\"")
            context.appendActionURL(row.id, action: action.name, into: &out)
            out.append("\">")
            if !action.fields.isEmpty {
                out.appendFormFields(action.fields)
            } else if let field = action.field {
                out.append("<input type=\"text\" required name=\"")
                out.appendEscapedHTML(field.name)
                out.append("\" placeholder=\"")
                out.appendEscapedHTML(field.placeholder)
                out.append("\" aria-label=\"")
                out.appendEscapedHTML(field.placeholder)
                out.append("\" value=\"")
                out.appendEscapedHTML(field.value)
                out.append("\"")
                if let maxLength = field.maxLength, maxLength >= 0 {
                    out.append(" maxlength=\"")
                    out.append(maxLength)
                    out.append("\"")
                }
                out.append(">")
            }
            out.append(action.style == .destructive ? "<button type=\"submit\" class=\"tk-destructive\">" : "<button type=\"submit\">")
            out.appendEscapedHTML(action.title)
            out.append("</button></form>")
        }
        if row.canMove {
            appendMoveControls(row, at: indexPath, in: section, into: &out)
        }
        out.append("</div>")
    }

    /// "Move up" places the row before its predecessor, "Move down" after its successor.
    private func appendMoveControls(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer) {
        if indexPath.row > 0 {
            let previous = table.root.rowID(forRowAt: TableIndexPath(section: indexPath.section, row: indexPath.row - 1))
            appendMoveForm(row.id, section: section.id, neighbourField: PageContract.Field.before, neighbour: previous,
                           label: "Move up", symbol: "\u{2191}", className: "tk-move tk-move-up", into: &out)
        }
        if indexPath.row + 1 < section.rowCount {
            let next = table.root.rowID(forRowAt: TableIndexPath(section: indexPath.section, row: indexPath.row + 1))
            appendMoveForm(row.id, section: section.id, neighbourField: PageContract.Field.after, neighbour: next,
                           label: "Move down", symbol: "\u{2193}", className: "tk-move tk-move-down", into: &out)
        }
    }

    private func appendMoveForm(
        _ row: RowID, section: SectionID, neighbourField: String, neighbour: RowID,
        label: StaticString, symbol: StaticString, className: StaticString, into out: inout OutputBuffer
    ) {
        // Which way it moves is in the class too, so a style can keep a slot for the button a first
        // or last row lacks (the rows' check marks line up).
        out.append("<form class=\"")
        out.append(className)
        out.append("\" method=\"post\" action=\"")
        context.appendRowURL(row, suffix: PageContract.movePath, into: &out)
        out.append("\"><input type=\"hidden\" name=\"")
        out.appendUnescaped(PageContract.Field.section)
        out.append("\" value=\"")
        out.appendEscapedHTML(section.rawValue)
        out.append("\"><input type=\"hidden\" name=\"")
        out.appendUnescaped(neighbourField)
        out.append("\" value=\"")
        out.appendEscapedHTML(neighbour.rawValue)
        out.append("\"><button type=\"submit\" aria-label=\"")
        out.append(label)
        out.append("\">")
        out.append(symbol)
        out.append("</button></form>")
    }
}
