import Escaping
import Logging
import MicroHTTP
import Synchronization
import TableKit
import TablePages
import TableStore

/// Editing a database's tables in the browser, through their ``TableWriter``s: the forms and the
/// writes behind a table page's edit controls.
///
/// - `GET /pages/{table}/-/insert`: the insert form (each column's type, NOT NULL and default, and a
///   box for rows pasted from a spreadsheet); `POST` to it inserts one row, or with `_paste` the
///   pasted rows in one transaction (`_preview=1`: shows them first, writing nothing).
/// - `GET /pages/{table}/rows/{row}/-/edit`: the row's edit form, every column (`?column=c`: the
///   editor of one column, which the page script puts in place of the cell); `POST
///   …/-/update` writes it, `POST …/-/delete` deletes the row.
/// - `POST /pages/{table}/-/undo`: undoes the actor's last change, when it was to this table
///   (`_row`: and to that row), from the audit trail, so every value is written back exactly as
///   it was (a blob as bytes, a real as a real, text that looks like a number as text).
///
/// Every write is checked as the page's other writes are (``/TablePages/AccessControl/authorizeWrite(_:page:)``:
/// 401 without an actor, 403 for one the page's rules refuse, and for a view), and so is every
/// form (a viewer who may not write is shown none). An update or delete says what it was made on
/// (`_version`, a `RowVersion`): when the row changed since, it is refused with 409 and the row
/// as it is now, and the writer checks again in its transaction. A value the database refuses is
/// a 400 naming the column (header `TablePages-Field`), shown beside its field. A form sent
/// without a script is answered with a redirect, or the form again with what went wrong; a
/// script (`Accept: application/json`) gets JSON.
public struct DatabaseTableEditing: Sendable {
    private let tables: EditableTables
    private let writers: TableWriters
    private let pages: SitePages
    private let access: AccessControl
    private let siteTitle: String
    private let logger: Logger

    /// The most rows one paste writes: more is refused with a message that says so
    /// (`serve --max-pasted-rows`).
    public var maxPastedRows = DatabaseTableEditing.defaultMaxPastedRows
    /// The most rows of a referenced table a foreign key's editor lists; past it, the value is
    /// typed (`serve --max-foreign-key-choices`).
    public var maxChoices = DatabaseTableEditing.defaultMaxChoices
    /// The default of ``maxPastedRows``: 10,000.
    public static let defaultMaxPastedRows = 10_000
    /// The default of ``maxChoices``: 500.
    public static let defaultMaxChoices = 500

    /// One table that may be edited: its writer, its columns as the forms show them, and the
    /// choices of its foreign keys.
    struct EditableTable: Sendable {
        let writer: TableWriter
        let columns: [EditableColumn]
        let links: [DatabaseLinkedColumn]

        /// `writer`'s table, its columns read from the database. Blocking.
        init(_ writer: TableWriter) throws {
            self.writer = writer
            columns = try writer.database.snapshot { db in try EditableColumn.all(writer.schema, in: db) }
            links = writer.schema.linkedColumns
        }
    }

    /// The editable tables by page name: those read when the site was built, and those created
    /// or altered since, read when first edited.
    private final class EditableTables: Sendable {
        let known: Mutex<[String: EditableTable]>
        init(_ tables: [String: EditableTable]) { known = Mutex(tables) }
    }

    /// Editing for the tables `writers` can write, whose pages `pages` holds (each named
    /// ``DatabaseTablePages/pageName(ofTable:)``); `access` decides who may write.
    /// - Throws: the database's errors reading the columns' types and defaults.
    public init(writers: TableWriters, pages: PageRegistry, access: AccessControl, siteTitle: String, logger: Logger = Logger(label: "TablePages")) throws {
        self.init(tables: try Self.editableTables(of: writers), writers: writers, pages: SitePages(pages), access: access, siteTitle: siteTitle, logger: logger)
    }

    /// Editing for `tables`, read before (``editableTables(of:)``), whose pages are the site's `pages` as they are at each request.
    init(tables: [String: EditableTable], writers: TableWriters, pages: SitePages, access: AccessControl, siteTitle: String, logger: Logger) {
        self.tables = EditableTables(tables)
        self.writers = writers
        self.pages = pages
        self.access = access
        self.siteTitle = siteTitle
        self.logger = logger
    }

    /// The tables `writers` can write, by page name, with their columns as the forms show them.
    /// - Throws: the database's errors reading the columns' types and defaults.
    static func editableTables(of writers: TableWriters) throws -> [String: EditableTable] {
        var tables: [String: EditableTable] = [:]
        for name in writers.writableTables {
            tables[DatabaseTablePages.pageName(ofTable: name)] = try EditableTable(try writers.writer(forTable: name))
        }
        return tables
    }

    /// The path of `table`'s insert form, under its page's path.
    static let insertSuffix = "/-/insert"
    /// The path of a row's edit form, under its row's path.
    static let editSuffix = "/-/edit"
    /// Where a row's edit form posts.
    static let updateSuffix = "/-/update"
    /// Where a row's delete posts.
    static let deleteSuffix = "/-/delete"
    /// Where the undo of the actor's last change of a table posts, under its page's path.
    static let undoSuffix = "/-/undo"

    /// Adds the forms' and the writes' routes to `router`.
    public func register(on router: inout Router) {
        let page = PageContract.pagePattern
        let row = PageContract.rowPattern
        router.on(.get, page + Self.insertSuffix, use: { request in try await self.insertForm(request) })
        router.on(.post, page + Self.insertSuffix, use: { request in try await self.insert(request) })
        router.on(.get, row + Self.editSuffix, use: { request in try await self.editForm(request) })
        router.on(.post, row + Self.updateSuffix, use: { request in try await self.update(request) })
        router.on(.post, row + Self.deleteSuffix, use: { request in try await self.delete(request) })
        router.on(.post, page + Self.undoSuffix, use: { request in try await self.undo(request) })
    }

    // MARK: Who

    /// The page, its table and the actor of a request that may edit it; for a form (`forWriting`
    /// false) without the CSRF check a navigation cannot pass.
    /// - Throws: 404 for no such page, 403 for a page that is not editable or an actor who may
    ///   not write it, 401 for no actor.
    private func resolve(_ request: Request, forWriting: Bool) async throws(HTTPError) -> (page: PageDefinition, table: EditableTable, author: WriteAuthor) {
        let segment = request.parameters[PageContract.Parameter.page] ?? ""
        let registry = pages.registry
        guard let page = PageContract.firstPage(inPath: segment, { registry.page(named: $0) }) else {
            throw HTTPError(404, "There is no page \u{201C}\(segment)\u{201D}.")
        }
        let actor: Actor?
        if forWriting {
            actor = try access.authorizeWrite(request, page: page)
        } else {
            actor = access.actor(for: request)
            if page.access.isReadOnly || actor.map({ !$0.mayWrite(page: page.name) || !page.access.write($0) }) == true {
                throw HTTPError(403, "\(actor?.name ?? "Nobody") may not change the page \u{201C}\(page.name)\u{201D}.")
            }
            if actor == nil && !access.settings.anonymousWrites {
                throw HTTPError(401, "Sign in to change anything: open the sign-in link the server logged when it started.")
            }
        }
        guard let table = try await editableTable(forPage: page.name) else {
            // Why it is read-only, in the writers' words (a view; a table without a key).
            do {
                _ = try writers.writer(forPage: page.name)
            } catch {
                if case .readOnly = error { throw error.httpError }
            }
            throw HTTPError(403, "The page \u{201C}\(page.name)\u{201D} is read-only: its rows cannot be edited here.")
        }
        let author = actor.map { WriteAuthor(actor: $0, channel: .browser) } ?? WriteAuthor(actorID: "anonymous", name: "anonymous", channel: .browser)
        return (page, table, author)
    }

    /// The editable table of the page named `name`, as its writer is now: a table created or
    /// altered while the site runs has its columns read (off the cooperative pool) when first
    /// edited. Nil for a page without a writer.
    private func editableTable(forPage name: String) async throws(HTTPError) -> EditableTable? {
        guard let writer = try? writers.writer(forPage: name) else { return nil }
        // The writer of a table rebuilt with the same columns is new too: its key, defaults or constraints may differ.
        if let known = tables.known.withLock({ $0[name] }), known.writer.generation == writer.generation { return known }
        do {
            let table = try await OwnThread.run { try EditableTable(writer) }
            tables.known.withLock { $0[name] = table }
            return table
        } catch {
            logger.error("could not read the columns of \(writer.table) to edit it: \(error)")
            throw HTTPError(503, "The columns of \(writer.table) could not be read: try again.")
        }
    }

    private func key(_ request: Request, in table: EditableTable) throws(HTTPError) -> (id: String, key: RowKey) {
        let id = request.parameters[PageContract.Parameter.row] ?? ""
        guard let key = table.writer.key(forRowID: id) else { throw HTTPError(404, "\u{201C}\(id)\u{201D} is no row of \(table.writer.table).") }
        return (id, key)
    }

    // MARK: Forms

    private func insertForm(_ request: Request) async throws -> Response {
        let (page, table, _) = try await resolve(request, forWriting: false)
        let choices = try await self.choices(for: table)
        return insertDocument(page: page, table: table, request: request, choices: choices, values: nil, problem: nil, status: 200)
    }

    private func editForm(_ request: Request) async throws -> Response {
        let (page, table, _) = try await resolve(request, forWriting: false)
        let (id, key) = try key(request, in: table)
        guard let row = try await table.writer.row(key) else { throw HTTPError(404, "There is no row \u{201C}\(id)\u{201D} in \(table.writer.table).") }
        let version = RowVersion(row, columns: table.writer.columns)
        let choices = try await self.choices(for: table)
        let csrf = access.actor(for: request).flatMap(access.csrfToken(for:))
        if let name = request.query["column"] {
            guard let column = table.columns.first(where: { $0.name == name }) else {
                throw HTTPError(400, "\(table.writer.table) has no column \u{201C}\(name)\u{201D}.")
            }
            return .html(EditForm.cellEditor(column, value: row[column.name], version: version, action: rowPath(page, id) + Self.updateSuffix, csrf: csrf, choices: choices[column.name]))
        }
        return editDocument(page: page, table: table, id: id, row: row, version: version, request: request, choices: choices, problem: nil, status: 200)
    }

    /// The labels of the rows each foreign key of `table` may refer to, for those whose table has
    /// at most ``maxChoices`` rows; read on a thread of its own.
    private func choices(for table: EditableTable) async throws -> [String: [EditForm.Choice]] {
        guard !table.links.isEmpty else { return [:] }
        let (links, database, maxChoices) = (table.links, table.writer.database, maxChoices)
        return try await OwnThread.run {
            try database.snapshot { db in
                var choices: [String: [EditForm.Choice]] = [:]
                for link in links {
                    let label = link.selectedLabel.map { ", " + $0 } ?? ""
                    let rows = try db.rows("SELECT \(link.selectedReferenced)\(label) FROM \(link.quotedTable) ORDER BY 1 LIMIT \(maxChoices + 1)", [])
                    guard rows.count <= maxChoices else { continue }
                    choices[link.column] = rows.map { row in
                        let value = EditInput.text(of: row[0])
                        let label = row.count > 1 ? (row[1].stringValue.map { "\($0) (\(value))" } ?? value) : value
                        return EditForm.Choice(value: row[0], label: label)
                    }
                }
                return choices
            }
        }
    }

    // MARK: Writes

    private func update(_ request: Request) async throws -> Response {
        let (page, table, author) = try await resolve(request, forWriting: true)
        let (id, key) = try key(request, in: table)
        let input = try EditInput.parse(request)
        let set = try input.values(for: table.columns, leavingOutEmpty: false)
        do {
            guard let current = try await table.writer.row(key) else { throw TableWriteError.conflict(current: nil) }
            let seen = input.field(EditInput.versionField)
            if let seen, seen != RowVersion(current, columns: table.writer.columns).token {
                throw TableWriteError.conflict(current: current)
            }
            // A form made on this row sends every column: the ones left as they were are not
            // written, so that what a browser does to a value on its way (a text box's line
            // breaks sent as CR LF) changes nothing the person did not touch.
            let changed = seen == nil ? set : Self.changes(set, from: current, formPosted: !request.prefersJSON)
            let after = try await table.writer.update(key, set: changed, seen: current, by: author)
            log(request, author, "update", id: id, status: 200)
            if !request.prefersJSON { return .redirect(to: rowPath(page, id)) }
            return .json(#"{"ok":true,"version":""# + RowVersion(after, columns: table.writer.columns).token + #"","row":"# + Self.json(after, columns: table.writer.columns) + "}")
        } catch let error as TableWriteError {
            log(request, author, "update", id: id, status: error.httpError.status)
            return try await refusal(error, request: request, page: page, table: table, id: id, input: input)
        }
    }

    /// The values of `set` that differ from the row's `current` ones. For a form posted by a
    /// browser without its script, text that differs only in how its line breaks are written is
    /// the same: a browser sends a text box's line breaks as CR LF, whatever the box was given.
    static func changes(_ set: [String: SQLValue], from current: [String: SQLValue], formPosted: Bool) -> [String: SQLValue] {
        set.filter { column, value in
            guard let old = current[column] else { return true }
            guard value != old else { return false }
            guard formPosted, case .text(let new) = value, case .text(let was) = old else { return true }
            return lineBreaksUnified(new) != lineBreaksUnified(was)
        }
    }

    /// `text` with each CR LF and lone CR written as LF.
    private static func lineBreaksUnified(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    private func delete(_ request: Request) async throws -> Response {
        let (page, table, author) = try await resolve(request, forWriting: true)
        let (id, key) = try key(request, in: table)
        let input = try EditInput.parse(request)
        do {
            guard let current = try await table.writer.row(key) else { throw TableWriteError.conflict(current: nil) }
            if let seen = input.field(EditInput.versionField), seen != RowVersion(current, columns: table.writer.columns).token {
                throw TableWriteError.conflict(current: current)
            }
            try await table.writer.delete(key, seen: current, by: author)
            log(request, author, "delete", id: id, status: 200)
            if !request.prefersJSON { return .redirect(to: pagePath(page)) }
            // The row's values as the insert form sends them, and where to undo the delete when
            // the audit trail keeps it (which writes every value back exactly).
            let undo = writers.audit == nil ? "" : #","undo":""# + JSONEscaping.escape(pagePath(page) + Self.undoSuffix) + "\""
            return .json(#"{"ok":true,"deleted":"# + Self.json(current, columns: table.writer.columns) + undo + "}")
        } catch let error as TableWriteError {
            log(request, author, "delete", id: id, status: error.httpError.status)
            return try await refusal(error, request: request, page: page, table: table, id: id, input: input)
        }
    }

    /// Undoes the actor's last change (``TableWriters/undoLast(by:)``) when it was to this
    /// table, and when `_row` is sent, to that row: 409 when their last change is another one
    /// (they changed something since) or the row moved on since, 404 when there is none.
    private func undo(_ request: Request) async throws -> Response {
        let (page, table, author) = try await resolve(request, forWriting: true)
        let input = try EditInput.parse(request)
        do {
            let records = try await writers.lastUndoableWrite(by: author)
            let row = input.field(Self.rowField)
            guard records[0].entry.table == table.writer.table,
                  row.map({ row in records.contains { table.writer.rowID(of: $0.entry.key) == row } }) ?? true else {
                log(request, author, "undo", id: row ?? "", status: 409)
                throw HTTPError(409, "Your last change is no longer that one (you changed something since), so it was not undone; the audit trail lists your changes.")
            }
            let keys = try await table.writer.undo(records, by: author)
            let ids = keys.map(table.writer.rowID(of:))
            log(request, author, "undo", id: ids.first ?? "", status: 200)
            if !request.prefersJSON { return .redirect(to: ids.count == 1 && records[0].entry.action == .delete ? rowPath(page, ids[0]) : pagePath(page)) }
            return .json(#"{"ok":true,"ids":["# + ids.map { "\"" + JSONEscaping.escape($0) + "\"" }.joined(separator: ",") + "]}")
        } catch let error as TableWriteError {
            log(request, author, "undo", id: "", status: error.httpError.status)
            throw error.httpError
        }
    }

    /// The field of an undo that names the row it is for.
    static let rowField = "_row"

    private func insert(_ request: Request) async throws -> Response {
        let (page, table, author) = try await resolve(request, forWriting: true)
        let input = try EditInput.parse(request)
        let rows: [[String: SQLValue]]
        var pasted: (text: String, rows: PastedRows)?
        if let text = input.field(EditInput.pasteField) {
            let read = try PastedRows(text, columns: table.columns, maxRows: maxPastedRows)
            if input.field(EditInput.previewField) != nil {
                return previewResponse(read, page: page, table: table, pasted: text, request: request)
            }
            pasted = (text, read)
            rows = read.rows.map(\.values)
        } else {
            rows = [try input.values(for: table.columns, leavingOutEmpty: true)]
        }
        do {
            let keys = try await table.writer.insertNamingRow(rows, by: author)
            log(request, author, "insert", id: keys.first.map(table.writer.rowID(of:)) ?? "", status: 201)
            let ids = keys.map(table.writer.rowID(of:))
            if !request.prefersJSON {
                return .redirect(to: pasted == nil && ids.count == 1 ? rowPath(page, ids[0]) : pagePath(page))
            }
            var response = Response.json(#"{"ok":true,"ids":["# + ids.map { "\"" + JSONEscaping.escape($0) + "\"" }.joined(separator: ",") + "]}", status: 201)
            if ids.count == 1 { response.headers.add("Location", rowPath(page, ids[0])) }
            return response
        } catch {
            log(request, author, "insert", id: "", status: error.error.httpError.status)
            if let pasted {
                // A pasted batch: the refused line is named and marked in the preview.
                let line = error.row.map { pasted.rows.rows[$0] }
                let answer = Self.pasteRefusal(error.error, line: line, rows: rows.count)
                guard !request.prefersJSON else { throw answer }
                return previewResponse(pasted.rows, page: page, table: table, pasted: pasted.text, request: request, refusal: (line: line?.line, message: answer.message), status: answer.status)
            }
            let answer = Self.withField(error.error.httpError, error: error.error, rows: rows.count)
            guard !request.prefersJSON else { throw answer }
            let choices = try await self.choices(for: table)
            let problem = Self.problem(of: error.error).map { (column: $0.column, message: answer.message) }
            return insertDocument(page: page, table: table, request: request, choices: choices, values: rows[0], problem: problem, status: answer.status)
        }
    }

    /// The refusal of a pasted batch by the database: a 400 names the line (`line`, the row
    /// refused, when the writer could tell) and the column, in `TablePages-Line` and
    /// `TablePages-Field` too; any other refusal is the writer's own.
    private static func pasteRefusal(_ error: TableWriteError, line: PastedRows.Line?, rows: Int) -> HTTPError {
        let answer = error.httpError
        guard answer.status == 400 else { return answer }
        var headers = answer.headers
        headers[EditInput.fieldHeader] = EditInput.pasteField
        let about: (column: String?, words: String)? = switch error {
        case .constraint(let column, _, let words), .invalid(let column, let words): (column, words)
        default: nil
        }
        guard let line, let about else {
            return HTTPError(answer.status, answer.message + (rows == 1 ? "" : " (in one of the \(rows) rows; none of them was written)"), headers: headers)
        }
        headers[PastedRows.lineHeader] = String(line.line)
        return HTTPError(answer.status, PastedRows.refusal(of: line, column: about.column, about.words, rows: rows), headers: headers)
    }

    /// The answer to a refused update or delete: 409 with the row as it is now, or the writer's
    /// error with the column it is about; for a form sent without a script, the form again.
    private func refusal(_ error: TableWriteError, request: Request, page: PageDefinition, table: EditableTable, id: String, input: EditInput) async throws -> Response {
        let columns = table.writer.columns
        if case .conflict(let current) = error {
            guard request.prefersJSON else {
                return try conflictDocument(page: page, table: table, id: id, current: current, input: input)
            }
            var body = #"{"error":{"status":409,"message":""# + JSONEscaping.escape(error.httpError.message) + #""},"current":"#
            body += current.map { Self.json($0, columns: columns) } ?? "null"
            body += #","version":"# + (current.map { "\"" + RowVersion($0, columns: columns).token + "\"" } ?? "null") + "}"
            return .json(body, status: 409)
        }
        let written = ((try? input.values(for: table.columns, leavingOutEmpty: false)) ?? [:]).keys.sorted()
        let answer = Self.withField(error.httpError, error: error, rows: 1, written: written)
        guard !request.prefersJSON, Self.problem(of: error) != nil else { throw answer }
        let (_, key) = try key(request, in: table)
        guard let row = try await table.writer.row(key) else { throw answer }
        var shown = row
        for (column, value) in (try? input.values(for: table.columns, leavingOutEmpty: false)) ?? [:] { shown[column] = value }
        let choices = try await self.choices(for: table)
        let problem = Self.problem(of: error, written: written).map { (column: $0.column, message: answer.message) }
        return editDocument(
            page: page, table: table, id: id, row: shown, version: RowVersion(row, columns: columns), request: request, choices: choices, problem: problem, status: answer.status
        )
    }

    /// The column a refusal is about: the one it names, else the only column `written` (a cell's
    /// edit: PostgreSQL names no column for a value its type cannot read).
    private static func problem(of error: TableWriteError, written: [String] = []) -> (column: String?, rule: String)? {
        let only = written.count == 1 ? written[0] : nil
        switch error {
        case .constraint(let column, let rule, _): return (column ?? only, rule.rawValue)
        case .invalid(let column, _): return (column ?? only, "invalid")
        default: return nil
        }
    }

    /// `answer` with the `TablePages-Field` header naming the input of the column it is about, and
    /// in a batch of `rows`, a message that says the batch was written whole or not at all.
    private static func withField(_ answer: HTTPError, error: TableWriteError, rows: Int, written: [String] = []) -> HTTPError {
        var answer = answer
        if let column = problem(of: error, written: written)?.column {
            answer = HTTPError(answer.status, answer.message, headers: answer.headers.merging([EditInput.fieldHeader: EditInput.valuePrefix + column]) { _, new in new })
        }
        if rows > 1, answer.status == 400 {
            answer = HTTPError(answer.status, answer.message + " (in one of the \(rows) rows; none of them was written)", headers: answer.headers)
        }
        return answer
    }

    // MARK: Documents

    private func pagePath(_ page: PageDefinition) -> String { PageContract.pagePath(named: page.name) }
    private func rowPath(_ page: PageDefinition, _ id: String) -> String { PageContract.rowPath(RowID(id), basePath: pagePath(page)) }

    private func csrf(_ request: Request) -> String? {
        access.actor(for: request).flatMap(access.csrfToken(for:))
    }

    private func insertDocument(
        page: PageDefinition, table: EditableTable, request: Request, choices: [String: [EditForm.Choice]], values: [String: SQLValue]?,
        problem: (column: String?, message: String)?, status: Int
    ) -> Response {
        let action = HTMLEscaping.escape(pagePath(page) + Self.insertSuffix)
        var html = "<main class=\"tp-index tp-edit\">" + breadcrumbs(page, last: "Add a row", here: pagePath(page) + Self.insertSuffix)
        html += "<h1>Add a row to " + HTMLEscaping.escape(page.title) + "</h1>"
        if let problem, problem.column == nil {
            html += "<p class=\"tp-edit-problem\" role=\"alert\">" + HTMLEscaping.escape(problem.message) + "</p>"
        }
        html += "<form class=\"tp-edit-form tp-insert-form\" method=\"post\" action=\"" + action + "\">" + EditForm.hidden(csrf: csrf(request), version: nil)
        html += "<p class=\"tp-edit-note\">A field left empty gets the column\u{2019}s default (NULL when it has none).</p>"
        html += EditForm.fields(table.columns, values: values, choices: choices, problem: problem, inserting: true)
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\">Add the row</button></div></form>"
        html += "<form class=\"tp-edit-form tp-paste-form\" method=\"post\" action=\"" + action + "\">" + EditForm.hidden(csrf: csrf(request), version: nil)
        html += "<label for=\"tp-paste\">Or paste rows copied from a spreadsheet (tab- or comma-separated; a first line of column names says which column each holds)</label>"
        html += "<textarea id=\"tp-paste\" name=\"" + EditInput.pasteField + "\" rows=\"6\" spellcheck=\"false\">" + "</textarea>"
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\" name=\"" + EditInput.previewField + "\" value=\"1\">Preview</button></div></form></main>"
        return SiteDocument.response(title: "Add a row to " + page.title, siteTitle: siteTitle, body: html, status: status)
    }

    /// The pasted rows before they are written: their columns and values (JSON for the script),
    /// or a page with the rows and the form that writes them. After a refused write, `refusal`
    /// says why, beside the rows, with the refused line marked.
    private func previewResponse(
        _ pastedRows: PastedRows, page: PageDefinition, table: EditableTable, pasted: String, request: Request,
        refusal: (line: Int?, message: String)? = nil, status: Int = 200
    ) -> Response {
        let rows = pastedRows.rows.map(\.values)
        let columns = table.columns.map(\.name).filter { column in rows.contains { $0[column] != nil } }
        if request.prefersJSON {
            var body = #"{"columns":["# + columns.map { "\"" + JSONEscaping.escape($0) + "\"" }.joined(separator: ",") + #"],"rows":["#
            body += rows.map { Self.json($0, columns: columns) }.joined(separator: ",")
            body += #"],"lines":["# + pastedRows.rows.map { String($0.line) }.joined(separator: ",") + "]}"
            return .json(body)
        }
        let action = HTMLEscaping.escape(pagePath(page) + Self.insertSuffix)
        var html = "<main class=\"tp-index tp-edit\">" + breadcrumbs(page, last: "Paste rows", here: pagePath(page) + Self.insertSuffix)
        html += "<h1>" + (rows.count == 1 ? "1 row" : "\(rows.count) rows") + " to add to " + HTMLEscaping.escape(page.title) + "</h1>"
        html += "<form class=\"tp-edit-form\" method=\"post\" action=\"" + action + "\">" + EditForm.hidden(csrf: csrf(request), version: nil)
        html += "<input type=\"hidden\" name=\"" + EditInput.pasteField + "\" value=\"" + HTMLEscaping.escape(pasted) + "\">"
        html += Self.previewTable(pastedRows, columns: columns, refusedLine: refusal?.line)
        if let refusal {
            html += "<p class=\"tp-edit-problem\" role=\"alert\">" + HTMLEscaping.escape(refusal.message) + "</p>"
        }
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\">Add " + (rows.count == 1 ? "the row" : "these \(rows.count) rows") + "</button>"
        html += "<a href=\"" + action + "\">Back</a></div></form></main>"
        return SiteDocument.response(title: "Paste rows into " + page.title, siteTitle: siteTitle, body: html, status: status)
    }

    /// The pasted rows as a table, each headed by its line in the pasted text, NULL and left-out
    /// values marked, and the line `refusedLine` marked as refused.
    static func previewTable(_ rows: PastedRows, columns: [String], refusedLine: Int? = nil) -> String {
        var html = "<div class=\"tp-paste-preview\"><table><thead><tr><th scope=\"col\">Line</th>"
        for column in columns { html += "<th scope=\"col\">" + HTMLEscaping.escape(column) + "</th>" }
        html += "</tr></thead><tbody>"
        for row in rows.rows {
            html += "<tr data-line=\"\(row.line)\"" + (row.line == refusedLine ? " class=\"tp-paste-refused\"" : "") + "><th scope=\"row\">\(row.line)</th>"
            for column in columns {
                switch row.values[column] {
                case nil: html += "<td class=\"tp-default\">default</td>"
                case .null?: html += "<td class=\"tk-null\">NULL</td>"
                case let value?: html += "<td>" + HTMLEscaping.escape(EditInput.text(of: value)) + "</td>"
                }
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }

    private func editDocument(
        page: PageDefinition, table: EditableTable, id: String, row: [String: SQLValue], version: RowVersion, request: Request,
        choices: [String: [EditForm.Choice]], problem: (column: String?, message: String)?, status: Int
    ) -> Response {
        let path = rowPath(page, id)
        var html = "<main class=\"tp-index tp-edit\">" + breadcrumbs(page, last: "Edit", here: rowPath(page, id) + Self.editSuffix, row: id)
        html += "<h1>Edit <bdi>" + HTMLEscaping.escape(page.title) + "</bdi>: <bdi>" + HTMLEscaping.escape(id) + "</bdi></h1>"
        if let problem, problem.column == nil {
            html += "<p class=\"tp-edit-problem\" role=\"alert\">" + HTMLEscaping.escape(problem.message) + "</p>"
        }
        html += "<form class=\"tp-edit-form\" method=\"post\" action=\"" + HTMLEscaping.escape(path + Self.updateSuffix) + "\">"
        html += EditForm.hidden(csrf: csrf(request), version: version)
        html += EditForm.fields(table.columns, values: row, choices: choices, problem: problem, inserting: false)
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\">Save</button></div></form>"
        html += "<form class=\"tp-edit-form tp-delete-form\" method=\"post\" action=\"" + HTMLEscaping.escape(path + Self.deleteSuffix) + "\">"
        html += EditForm.hidden(csrf: csrf(request), version: version)
        html += "<label class=\"tp-edit-null\"><input type=\"checkbox\" required name=\"confirm\" value=\"1\"> Yes, delete this row</label>"
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\" class=\"tk-destructive\">Delete the row</button></div></form></main>"
        return SiteDocument.response(title: "Edit " + page.title + ": " + id, siteTitle: siteTitle, body: html, status: status)
    }

    /// The row as it is now beside what the person sent, with "Keep mine" (the same values,
    /// checked against the row as it is now) and "Take theirs".
    private func conflictDocument(page: PageDefinition, table: EditableTable, id: String, current: [String: SQLValue]?, input: EditInput) throws -> Response {
        let path = rowPath(page, id)
        var html = "<main class=\"tp-index tp-edit\">" + breadcrumbs(page, last: "Edit", here: rowPath(page, id) + Self.editSuffix, row: id)
        guard let current else {
            html += "<h1>The row was deleted</h1><p role=\"alert\">Someone deleted row <bdi>" + HTMLEscaping.escape(id) + "</bdi> since you saw it; nothing was written.</p>"
            html += "<p><a href=\"" + HTMLEscaping.escape(pagePath(page)) + "\">Back to " + HTMLEscaping.escape(page.title) + "</a></p></main>"
            return SiteDocument.response(title: "Row deleted", siteTitle: siteTitle, body: html, status: 409)
        }
        let mine = try input.values(for: table.columns, leavingOutEmpty: false)
        html += "<h1>Someone changed this row</h1><p role=\"alert\">Row <bdi>" + HTMLEscaping.escape(id) + "</bdi> changed since you saw it; nothing was written.</p>"
        html += "<table class=\"tp-conflict\"><thead><tr><th scope=\"col\">Column</th><th scope=\"col\">Theirs (now)</th><th scope=\"col\">Yours</th></tr></thead><tbody>"
        for column in table.columns where mine[column.name] != nil {
            html += "<tr><th scope=\"row\">" + HTMLEscaping.escape(column.name) + "</th><td>" + Self.shown(current[column.name]) + "</td><td>" + Self.shown(mine[column.name]) + "</td></tr>"
        }
        html += "</tbody></table><form class=\"tp-edit-form\" method=\"post\" action=\"" + HTMLEscaping.escape(path + Self.updateSuffix) + "\">"
        html += EditForm.hidden(csrf: nil, version: RowVersion(current, columns: table.writer.columns))
        for (name, value) in input.pairs where name != EditInput.versionField {
            html += "<input type=\"hidden\" name=\"" + HTMLEscaping.escape(name) + "\" value=\"" + HTMLEscaping.escape(value) + "\">"
        }
        html += "<div class=\"tp-edit-buttons\"><button type=\"submit\">Keep mine</button><a href=\"" + HTMLEscaping.escape(path) + "\">Take theirs</a></div></form></main>"
        return SiteDocument.response(title: "Changed meanwhile", siteTitle: siteTitle, body: html, status: 409)
    }

    private static func shown(_ value: SQLValue?) -> String {
        switch value {
        case nil: "<span class=\"tp-default\">\u{2014}</span>"
        case .null?: "<span class=\"tk-null\">NULL</span>"
        case let value?: HTMLEscaping.escape(EditInput.text(of: value))
        }
    }

    private func breadcrumbs(_ page: PageDefinition, last: String, here: String, row: String? = nil) -> String {
        var crumbs = [(title: siteTitle, href: "/"), (title: page.title, href: pagePath(page))]
        if let row { crumbs.append((title: row, href: rowPath(page, row))) }
        return SiteDocument.breadcrumbs(crumbs + [(title: last, href: here)])
    }

    /// `row` as a JSON object of `columns`: each value as the form's input shows it, NULL as `null`.
    static func json(_ row: [String: SQLValue], columns: [String]) -> String {
        "{" + columns.compactMap { column in
            row[column].map { value in
                "\"" + JSONEscaping.escape(column) + "\":" + (value == .null ? "null" : "\"" + JSONEscaping.escape(EditInput.text(of: value)) + "\"")
            }
        }.joined(separator: ",") + "}"
    }

    private func log(_ request: Request, _ author: WriteAuthor, _ action: String, id: String, status: Int) {
        logger.info("write", metadata: [
            "actor": .string(author.actorID), "page": .string(request.parameters[PageContract.Parameter.page] ?? ""),
            "action": .string(action), "row": .string(id), "status": .stringConvertible(status),
        ])
    }
}
