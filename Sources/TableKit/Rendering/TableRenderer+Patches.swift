extension TableRenderer {
    /// Writes a changeset as the single-line JSON object of an SSE `data:` line:
    /// `{"version":N,"ops":[…]}`.
    ///
    /// Operations, in changeset order:
    /// - `{"op":"insert","section":S,"row":R,"after":R2|null,"html":…,"data":{row}}`
    ///   (`"after":null` means first in the section; `"before":R2` or `"before":null` (last) may appear instead)
    /// - `{"op":"delete","row":R}`
    /// - `{"op":"replace","section":S,"row":R,"html":…,"data":{row}}`
    /// - `{"op":"move","row":R,"section":S,"after":R2|null}`
    /// - `{"op":"insert-section","section":S,"after":S2|null,"html":…,"data":{section}}`
    /// - `{"op":"delete-section","section":S}`, `{"op":"replace-section","section":S,"html":…,"data":{section}}`,
    ///   `{"op":"move-section","section":S,"after":S2|null}`
    /// - `{"op":"replace-header","html":…|null,"data":{cell}|null}`: the table's header view
    ///   (``TableDataSource/headerViewForTable()``) changed; `html` is the whole
    ///   `<header id="table-header">`, null (and `data` null) when the table has no header view any more.
    /// - `{"op":"section-next","section":S,"rowCount":N,"next":url|null,"remaining":M|null,"html":…}`:
    ///   the section's whole row count changed, or its rows after a data source's
    ///   window. `rowCount`, `next` and `remaining` are what the section's page render says now
    ///   (its first ``RenderContext/rowLimit`` rows); `html` is that `next` link's outer HTML, absent
    ///   when `next` is null; without `html`, `next` is the section's JSON URL (`…/sections/S.json?…`),
    ///   as in a page's JSON. A client that has loaded L rows of the section has `rowCount − L` to come.
    ///   Comes after the section's row operations of the same patch.
    /// - `{"op":"reset"}`: refetch the page.
    ///
    /// `html` is the element's outer HTML (sections paged by ``RenderContext/rowLimit``) and is
    /// omitted when `includeHTML` is false; `data` is the element's JSON object as in a page.
    /// Render right after the commit, while the table still matches the changeset; an element
    /// that has gone since is written without `html` and `data`.
    ///
    ///     table.onChange = { changeset in
    ///         var out = OutputBuffer()
    ///         renderer.renderPatch(changeset, version: table.version, includeHTML: true, into: &out)
    ///     }
    public func renderPatch(_ changeset: Changeset, version: Int, includeHTML: Bool, into out: inout OutputBuffer) {
        var html = OutputBuffer(capacity: includeHTML ? 2048 : 0)
        out.append("{\"version\":")
        out.append(version)
        out.append(",\"ops\":[")
        for (position, operation) in changeset.operations.enumerated() {
            if position > 0 {
                out.append(",")
            }
            html.removeAll()
            appendOperation(operation, includeHTML: includeHTML, scratch: &html, into: &out)
        }
        out.append("]}")
    }

    private func appendOperation(
        _ operation: Changeset.Operation, includeHTML: Bool, scratch: inout OutputBuffer, into out: inout OutputBuffer
    ) {
        switch operation {
        case .insertRow(let row, let section, let placement):
            appendOp(.insert, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
            appendKey(",\"row\":", row.rawValue, into: &out)
            appendPlacement(placement, into: &out)
            appendRowContent(row, includeHTML: includeHTML, scratch: &scratch, into: &out)
        case .deleteRow(let row):
            appendOp(.delete, into: &out)
            appendKey(",\"row\":", row.rawValue, into: &out)
        case .replaceRow(let row):
            appendOp(.replace, into: &out)
            out.append(",\"section\":")
            let section = table.indexPath(forRowID: row).flatMap { table.sectionID(at: $0.section) }
            out.appendJSONString(section?.rawValue)
            appendKey(",\"row\":", row.rawValue, into: &out)
            appendRowContent(row, includeHTML: includeHTML, scratch: &scratch, into: &out)
        case .moveRow(let row, let section, let placement):
            appendOp(.move, into: &out)
            appendKey(",\"row\":", row.rawValue, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
            appendPlacement(placement, into: &out)
        case .insertSection(let section, let placement):
            appendOp(.insertSection, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
            appendPlacement(placement, into: &out)
            appendSectionContent(section, includeHTML: includeHTML, scratch: &scratch, into: &out)
        case .deleteSection(let section):
            appendOp(.deleteSection, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
        case .replaceSection(let section):
            appendOp(.replaceSection, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
            appendSectionContent(section, includeHTML: includeHTML, scratch: &scratch, into: &out)
        case .moveSection(let section, let placement):
            appendOp(.moveSection, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
            appendPlacement(placement, into: &out)
        case .replaceHeader:
            appendOp(.replaceHeader, into: &out)
            appendHeaderContent(includeHTML: includeHTML, scratch: &scratch, into: &out)
        case .updateSectionCounts(let section):
            appendOp(.sectionNext, into: &out)
            appendKey(",\"section\":", section.rawValue, into: &out)
            appendSectionPaging(section, includeHTML: includeHTML, scratch: &scratch, into: &out)
        case .reset:
            appendOp(.reset, into: &out)
        }
        out.append("}")
    }

    /// `{"op":"…"`, opening an operation.
    private func appendOp(_ operation: PageContract.PatchOperation, into out: inout OutputBuffer) {
        out.append("{\"op\":")
        out.appendJSONString(operation.rawValue)
    }

    private func appendKey(_ key: StaticString, _ value: String, into out: inout OutputBuffer) {
        out.append(key)
        out.appendJSONString(value)
    }

    private func appendPlacement<ID: CustomStringConvertible>(_ placement: Placement<ID>, into out: inout OutputBuffer) {
        switch placement {
        case .start: out.append(",\"after\":null")
        case .end: out.append(",\"before\":null")
        case .after(let id): appendKey(",\"after\":", id.description, into: &out)
        case .before(let id): appendKey(",\"before\":", id.description, into: &out)
        }
    }

    /// `,"html":…,"data":{…}` for the table's header view, both null when it has none.
    private func appendHeaderContent(includeHTML: Bool, scratch: inout OutputBuffer, into out: inout OutputBuffer) {
        guard let view = table.root.headerViewForTable() else {
            out.append(includeHTML ? ",\"html\":null,\"data\":null" : ",\"data\":null")
            return
        }
        if includeHTML {
            var emitter = HTMLEmitter(context: context, table: table)
            emitter.tableHeader(view, into: &scratch)
            out.append(",\"html\":\"")
            scratch.bytes.withUnsafeBufferPointer { out.appendEscapedJSON(utf8: $0) }
            out.append("\"")
        }
        out.append(",\"data\":")
        JSONEmitter(context: context).appendCell(view, into: &out)
    }

    /// `,"rowCount":N,"next":…,"remaining":…,"html":…` for a section, as its page render would
    /// announce them; nothing when the section has gone since.
    private func appendSectionPaging(_ section: SectionID, includeHTML: Bool, scratch: inout OutputBuffer, into out: inout OutputBuffer) {
        guard let index = table.sectionIndex(forSectionID: section), index < table.root.numberOfSections() else { return }
        var capture = SectionPagingCapture()
        TableWalker(table: table).walkSection(index, from: 0, limit: context.rowLimit, emitter: &capture, into: &scratch)
        out.append(",\"rowCount\":")
        out.append(capture.rowCount)
        guard let next = capture.next else {
            out.append(",\"next\":null,\"remaining\":null")
            return
        }
        out.append(",\"next\":\"")
        // A stream without HTML is read by scripts, for which `next` leads to JSON as in a page's JSON.
        context.appendNextURL(next, escaping: .json, asJSON: !includeHTML, into: &out)
        out.append("\",\"remaining\":")
        out.append(next.remaining)
        if includeHTML {
            scratch.removeAll()
            HTMLEmitter(context: context, table: table).nextLink(next, into: &scratch)
            out.append(",\"html\":\"")
            scratch.bytes.withUnsafeBufferPointer { out.appendEscapedJSON(utf8: $0) }
            out.append("\"")
        }
    }

    /// The element a patch operation carries.
    private enum PatchElement {
        case row(TableIndexPath)
        case section(Int)
    }

    /// `,"html":…,"data":{…}` for a row.
    private func appendRowContent(_ row: RowID, includeHTML: Bool, scratch: inout OutputBuffer, into out: inout OutputBuffer) {
        guard let indexPath = try? currentIndexPath(forRowID: row) else { return }
        appendContent(of: .row(indexPath), includeHTML: includeHTML, scratch: &scratch, into: &out)
    }

    /// `,"html":…,"data":{…}` for a section.
    private func appendSectionContent(_ section: SectionID, includeHTML: Bool, scratch: inout OutputBuffer, into out: inout OutputBuffer) {
        guard let index = table.sectionIndex(forSectionID: section), index < table.root.numberOfSections() else { return }
        appendContent(of: .section(index), includeHTML: includeHTML, scratch: &scratch, into: &out)
    }

    /// Walks the element once: with HTML wanted, an HTML emitter writes into `scratch` while a
    /// JSON emitter writes the data; without, only the JSON emitter runs.
    private func appendContent(of element: PatchElement, includeHTML: Bool, scratch: inout OutputBuffer, into out: inout OutputBuffer) {
        if includeHTML {
            var emitter = TeeEmitter(HTMLEmitter(context: context, table: table), JSONEmitter(context: context))
            walk(element, emitter: &emitter, into: &scratch)
            out.append(",\"html\":\"")
            scratch.bytes.withUnsafeBufferPointer { out.appendEscapedJSON(utf8: $0) }
            out.append("\",\"data\":")
            out.append(emitter.secondOutput)
        } else {
            var emitter = JSONEmitter(context: context)
            walk(element, emitter: &emitter, into: &scratch)
            out.append(",\"data\":")
            out.append(scratch)
        }
    }

    private func walk<Emitter: TableEmitter>(_ element: PatchElement, emitter: inout Emitter, into out: inout OutputBuffer) {
        let walker = TableWalker(table: table)
        switch element {
        case .row(let indexPath):
            walker.walkRow(at: indexPath, emitter: &emitter, into: &out)
        case .section(let index):
            walker.walkSection(index, from: 0, limit: context.rowLimit, emitter: &emitter, into: &out)
        }
    }
}
