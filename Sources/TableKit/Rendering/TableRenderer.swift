/// Renders a ``TableAdapter`` as HTML or JSON bytes into a reusable ``OutputBuffer``; both formats
/// come from the same walk of the delegate tree.
///
///     let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/todo"))
///     var out = OutputBuffer()
///     renderer.renderPage(as: .html, into: &out)
///
/// ## HTML
/// A fragment for the page body: `<main class="tk-table" data-version="N">` holding an `<h1>`
/// title, an optional section-index `<nav>`, and per section a
/// `<section data-section="{id}">` with its `<header>`, a `<div role="table">` of
/// `<div role="row" data-row="{id}" data-kind="…" data-height="…">` rows, a `rel="next"` link when paged, and
/// its `<footer>`. Selection and editing are plain forms (`POST {base}/rows/{id}/select`,
/// `…/actions/{name}`, `…/move`, `POST {base}/rows/{id}` with `_method=DELETE`,
/// `POST {base}/sections/{id}/rows`), so pages work without JavaScript. All text is escaped and
/// no script is written.
///
/// ## JSON
/// ```
/// {"title": "To do" | null, "version": 3,
///  "sectionIndex": [{"title": "A", "section": "a"}],            // only when there is an index
///  "sections": [{"id": "open", "header": "Open" | null, "footer": null,
///                "headerView": {"kind": …, …content}, "headerHeight": 44,   // only when given
///                "rowCount": 250,
///                "rows": [{"id": "todo-17", "kind": "subtitle", "height": 44 | null,
///                          "estimatedHeight": 60, "indentationLevel": 1,
///                          "title": …, "subtitle": …, "detail": …, "accessory": "checkmark",
///                          "image": {"url": …, "alt": …, "width": 64, "height": 64},
///                          "badge": …, "fields": {"name": "value", "price": 12.5, "note": null},
///                          "done": true,                   // the cell's typed values, by name
///                          "selectable": false, "editingStyle": "delete", "deleteTitle": …,
///                          "movable": true, "actions": [{"name": …, "title": …, "style": "normal"}]}],
///                "next": "/pages/todo/sections/open.json?after=todo-17&limit=100" | null}],
///  "next": "/pages/todo/sections/open.json?after=todo-17&limit=100" | null}
/// ```
/// `height` is null for automatic heights. Optional keys appear only when they have a value.
/// A row's typed values (``CellDataProvider/jsonProperties``) follow its display text as members
/// of their own. A section's `next` is the JSON URL of its following rows, or null; the top-level
/// `next` is the first paged section's `next` (a page of one section: its next rows), or null
/// when every section is whole. Strings escape `<`, `>`, `&`, U+2028 and
/// U+2029, so output can be embedded in HTML and sent on one SSE line.
public struct TableRenderer {
    /// The table to render.
    public let table: TableAdapter
    /// Where the table lives on the web.
    public var context: RenderContext

    /// Creates a renderer.
    public init(table: TableAdapter, context: RenderContext) {
        self.table = table
        self.context = context
    }

    /// Writes the whole table, each section limited to ``RenderContext/rowLimit`` rows.
    public func renderPage(as format: RenderFormat, into out: inout OutputBuffer) {
        let walker = TableWalker(table: table)
        switch format {
        case .html:
            var emitter = HTMLEmitter(context: context, table: table)
            walker.walkTable(rowLimit: context.rowLimit, emitter: &emitter, into: &out)
        case .json:
            var emitter = JSONEmitter(context: context)
            walker.walkTable(rowLimit: context.rowLimit, emitter: &emitter, into: &out)
        }
    }

    /// Writes one section: its element (HTML) or object (JSON) with the rows after `after`
    /// (from the first row when nil), at most `limit` of them (``RenderContext/rowLimit`` when nil).
    ///
    ///     try renderer.renderSection("open", after: "todo-17", limit: 50, as: .json, into: &out)
    /// - Throws: ``TableError/unknownSection(_:)``, or ``TableError/unknownRow(_:)`` when `after`
    ///   is not a row of that section.
    public func renderSection(
        _ id: SectionID, after: RowID? = nil, limit: Int? = nil, as format: RenderFormat, into out: inout OutputBuffer
    ) throws {
        guard let section = table.sectionIndex(forSectionID: id) else { throw TableError.unknownSection(id) }
        var start = 0
        if let after {
            guard let indexPath = table.indexPath(forRowID: after), indexPath.section == section else {
                throw TableError.unknownRow(after)
            }
            start = indexPath.row + 1
        }
        let walker = TableWalker(table: table)
        switch format {
        case .html:
            var emitter = HTMLEmitter(context: context, table: table)
            walker.walkSection(section, from: start, limit: limit ?? context.rowLimit, emitter: &emitter, into: &out)
        case .json:
            var emitter = JSONEmitter(context: context)
            walker.walkSection(section, from: start, limit: limit ?? context.rowLimit, emitter: &emitter, into: &out)
        }
    }

    /// Writes one row: its `<li>` element (HTML) or object (JSON).
    /// - Throws: ``TableError/unknownRow(_:)``.
    public func renderRow(_ id: RowID, as format: RenderFormat, into out: inout OutputBuffer) throws {
        let indexPath = try currentIndexPath(forRowID: id)
        let walker = TableWalker(table: table)
        switch format {
        case .html:
            var emitter = HTMLEmitter(context: context, table: table)
            walker.walkRow(at: indexPath, emitter: &emitter, into: &out)
        case .json:
            var emitter = JSONEmitter(context: context)
            walker.walkRow(at: indexPath, emitter: &emitter, into: &out)
        }
    }

    /// The committed index path of a row, checked against the delegate tree's current counts so
    /// that data changed without a batch cannot send an index out of range into user code.
    func currentIndexPath(forRowID id: RowID) throws -> TableIndexPath {
        guard let indexPath = table.indexPath(forRowID: id),
              indexPath.section < table.root.numberOfSections(),
              indexPath.row < table.root.numberOfRows(inSection: indexPath.section) else {
            throw TableError.unknownRow(id)
        }
        return indexPath
    }
}
