import Escaping
import Logging
import MicroHTTP
import TableKit
import TablePages
import TableStore

/// Datasette 1.0a41's JSON write API at its URLs, so a script written for it (or `dclient insert`)
/// runs unchanged against a `--writable` SQLite file:
///
/// - `POST /{database}/{table}/-/insert`: `row` or `rows` (at most ``maxInsertRows``), with
///   `return`, `ignore`, `replace`, `alter`; 201.
/// - `POST /{database}/{table}/-/upsert`: rows that each name the key; 200.
/// - `POST /{database}/{table}/{pk}/-/update`: `update` (with `return`, `alter`); 200.
/// - `POST /{database}/{table}/{pk}/-/delete`: 200.
/// - `POST /{database}/-/create`: a table from `columns`, or from `rows` with `pk`/`pks` (into the
///   table when it exists, with `ignore`/`replace`/`alter`); 201.
///
/// Answers and errors are Datasette's JSON (`{"ok": false, "error": …, "errors": […], "status": …}`),
/// in its words. Who may write: an actor (an access token, or a signed-in browser from this site)
/// that may write the table's page (``/TablePages/Actor/mayWrite(page:)``, a token's write scope);
/// schema changes (`/-/create`, `alter`) only an actor that may write every page. Anyone else gets
/// Datasette's 403 "Permission denied", and without `--writable` every write is refused with 403.
struct DatasetteWriteAPI: Sendable {
    let api: DatasetteAPI
    let writer: DatasetteWriter
    let logger: Logger

    /// Adds the write routes under each of the database's `prefixes`.
    func register(on router: inout Router, prefixes: [String]) {
        for prefix in prefixes {
            router.on(.post, "/\(prefix)/-/create", use: { request in await self.create(request) })
            router.on(.post, "/\(prefix)/:table/-/insert", keepingMalformedEscapes: true, use: { request in await self.insert(request, upsert: false) })
            router.on(.post, "/\(prefix)/:table/-/upsert", keepingMalformedEscapes: true, use: { request in await self.insert(request, upsert: true) })
            router.on(.post, "/\(prefix)/:table/:row/-/update", keepingMalformedEscapes: true, use: { request in await self.update(request) })
            router.on(.post, "/\(prefix)/:table/:row/-/delete", keepingMalformedEscapes: true, use: { request in await self.delete(request) })
        }
    }

    // MARK: Handlers

    private func insert(_ request: Request, upsert: Bool) async -> Response {
        guard let table = api.table(named: request.parameters["table"] ?? "") else { return Self.error("Table not found", status: 404) }
        guard !table.isView else { return Self.error("Table not found: \(table.schema.name)", status: 404) }
        // Datasette's upsert needs two of its permissions, and says so.
        let denied = upsert ? "Permission denied: need both insert-row and update-row" : "Permission denied"
        if let refusal = refusal(request, table: table.schema.name, message: denied) { return refusal }
        let parsed: DatasetteWriteRequest.Insert
        do {
            parsed = try DatasetteWriteRequest.insert(request.body, pks: table.addressColumns, columns: table.columns, upsert: upsert, maxRows: api.maxInsertRows)
        } catch {
            return Self.error(error.messages, status: error.status)
        }
        if parsed.alter, let refusal = schemaRefusal(request, message: "Permission denied for alter-table") { return refusal }
        guard let author = author(of: request) else { return Self.error(denied, status: 403) }
        let (writer, audit) = (writer, api.writers?.audit)
        let name = table.schema.name
        let keys = table.primaryKeys
        return await answer(request, altered: parsed.alter, status: upsert ? 200 : 201, what: "\(upsert ? "upsert" : "insert") of \(parsed.rows.count) rows into \(name)") {
            let rows = try writer.insert(parsed, into: name, pks: keys, upsert: upsert, audit: audit, by: author)
            return rows.map { [("rows", Self.rowsJSON($0))] } ?? []
        }
    }

    private func update(_ request: Request) async -> Response {
        var target: (table: DatasetteTable, key: RowKey, rowID: SQLValue?)
        switch await writableRow(request) {
        case .success(let found): target = found
        case .failure(let answered): return answered.response
        }
        let parsed: DatasetteWriteRequest.Update
        do {
            parsed = try DatasetteWriteRequest.update(request.body)
        } catch {
            return Self.error(error.messages, status: error.status)
        }
        if parsed.alter {
            if let refusal = schemaRefusal(request, message: "Permission denied for alter-table") { return refusal }
            // A schema change first, then the row's write through its table's writer, which reads the new columns.
            let (columns, name, reload) = (self.writer, target.table.schema.name, schemaReload)
            do {
                try await DatasetteAPI.inBackground {
                    try columns.addMissingColumns([parsed.update], to: name)
                    try reload()
                }
            } catch {
                return failure(error, what: "alter of \(name)")
            }
            target.table = api.catalog.table(named: name) ?? target.table
        }
        let table = target.table
        let (key, rowID) = (target.key, target.rowID)
        let changes = Dictionary(zip(parsed.update.columns, parsed.update.values), uniquingKeysWith: { _, last in last })
        return await answerWrite(request, table: table, status: 200) { (tableWriter: TableWriter, author: WriteAuthor) throws(TableWriteError) -> [(String, String)] in
            let after = try await tableWriter.update(key, set: changes, seen: nil, by: author)
            guard parsed.returnsRow else { return [] }
            let row = (rowID.map { [(DatasetteTable.rowIDName, $0)] } ?? []) + table.columns.map { ($0, after[$0] ?? .null) }
            return [("rows", Self.rowsJSON([row]))]
        }
    }

    private func delete(_ request: Request) async -> Response {
        let target: (table: DatasetteTable, key: RowKey, rowID: SQLValue?)
        switch await writableRow(request) {
        case .success(let found): target = found
        case .failure(let answered): return answered.response
        }
        let key = target.key
        return await answerWrite(request, table: target.table, status: 200) { (tableWriter: TableWriter, author: WriteAuthor) throws(TableWriteError) -> [(String, String)] in
            try await tableWriter.delete(key, seen: nil, by: author)
            return []
        }
    }

    private func create(_ request: Request) async -> Response {
        if let refusal = schemaRefusal(request, message: "Permission denied") { return refusal }
        let parsed: DatasetteWriteRequest.Create
        do {
            parsed = try DatasetteWriteRequest.create(request.body, maxRows: api.maxInsertRows)
        } catch {
            return Self.error(error.messages, status: error.status)
        }
        let existing: [String]?
        do {
            existing = try await DatasetteAPI.inBackground { [writer] in
                try writer.store.read { db -> [String]? in
                    guard try DatasetteWriter.schemaText(of: parsed.table, in: db) != nil else { return nil }
                    return try PragmaColumn.all(of: parsed.table, in: db).filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
                }
            }
        } catch {
            return failure(error, what: "create of \(parsed.table)")
        }
        var parsedForTable = parsed
        if let existing {
            // Datasette: a key given for a table that exists must be its key.
            if existing.count == 1, parsed.pks.count == 1, parsed.pks != existing { return Self.error("pk cannot be changed for existing table", status: 400) }
            if existing.count > 1, parsed.pks.count > 1, Set(parsed.pks) != Set(existing) { return Self.error("pk cannot be changed for existing table", status: 400) }
            // SQLite's words for creating it again.
            guard parsed.rows != nil else { return Self.error("table \"\(parsed.table)\" already exists", status: 400) }
            parsedForTable.pks = existing
        }
        guard let author = author(of: request) else { return Self.error("Permission denied", status: 403) }
        let (writer, audit) = (writer, api.writers?.audit)
        let databaseName = api.databaseName
        let host = "http://" + (request.headers["Host"] ?? "localhost")
        let tableURL = host + api.path + "/" + TildeEncoding.encode(parsed.table)
        let created = parsedForTable
        return await answer(request, altered: true, status: 201, what: "create of \(parsed.table)") {
            let schema = try writer.create(created, existingKey: existing, audit: audit, by: author)
            var members: [(String, String)] = [
                ("database", DatasetteJSON.string(databaseName)), ("table", DatasetteJSON.string(created.table)),
                ("table_url", DatasetteJSON.string(tableURL)), ("table_api_url", DatasetteJSON.string(tableURL + ".json")),
                ("schema", DatasetteJSON.string(schema)),
            ]
            if let rows = created.rows { members.append(("row_count", String(rows.count))) }
            return members
        }
    }

    // MARK: Access

    /// Datasette's 403 (with `message`) when the request may not write rows of `table` (or the
    /// database is not `--writable`); nil when it may.
    private func refusal(_ request: Request, table: String, message: String = "Permission denied") -> Response? {
        switch requester(request) {
        case .anonymous: return Self.error(message, status: 403)
        case .refused(let response): return response
        case .actor(let actor):
            guard actor.mayWrite(page: DatabaseTablePages.pageName(ofTable: table)) else { return Self.error(message, status: 403) }
            return readOnlyRefusal
        }
    }

    /// Datasette's 403 (with `message`) unless the request's actor may change the schema: one
    /// whose writes are not limited to some pages (a token made without `--pages`, a signed-in browser).
    private func schemaRefusal(_ request: Request, message: String) -> Response? {
        switch requester(request) {
        case .anonymous: return Self.error(message, status: 403)
        case .refused(let response): return response
        case .actor(let actor):
            guard actor.mayWrite, actor.pages == nil else { return Self.error(message, status: 403) }
            return readOnlyRefusal
        }
    }

    /// 403 when the database was opened read-only.
    private var readOnlyRefusal: Response? {
        api.writable ? nil : Self.error("The database is read-only: start tablepages serve with --writable to write through Datasette's API.", status: 403)
    }

    /// Who sent a request.
    private enum Requester {
        /// Nobody signed in, and no token.
        case anonymous
        /// A token that is not valid (401), or a browser's request from another site's page (403).
        case refused(Response)
        /// A token's actor, or a signed-in browser's.
        case actor(TablePages.Actor)
    }

    private func requester(_ request: Request) -> Requester {
        guard let access = api.accessControl else { return .anonymous }
        do {
            try access.checkCrossSite(request)
        } catch {
            return .refused(Self.error(error.message, status: error.status))
        }
        if let actor = access.actor(for: request) { return .actor(actor) }
        if (request.headers["Authorization"] ?? "").lowercased().hasPrefix("bearer ") {
            return .refused(Self.error("The access token is not valid: it was revoked, or mistyped.", status: 401))
        }
        return .anonymous
    }

    // MARK: Helpers

    /// The request's actor as the audit trail names a write through this API; nil for none.
    private func author(of request: Request) -> WriteAuthor? {
        api.accessControl?.actor(for: request).map { WriteAuthor(actor: $0, channel: .api) }
    }

    private func rowTableName(_ request: Request) -> String {
        let segment = request.parameters["table"] ?? ""
        return api.table(named: segment)?.schema.name ?? TildeEncoding.decode(segment) ?? segment
    }

    /// A failed lookup's answer, as a value a `Result` can carry.
    private struct Answered: Error {
        var response: Response
    }

    /// The table and key of `/{table}/{pk}/-/…` once the request may write it; else Datasette's
    /// 403 (checked first, so a refused request learns nothing of the row) or 404.
    private func writableRow(_ request: Request) async -> Result<(table: DatasetteTable, key: RowKey, rowID: SQLValue?), Answered> {
        if let refusal = refusal(request, table: rowTableName(request)) { return .failure(Answered(response: refusal)) }
        return await row(request)
    }

    /// The table and key of `/{table}/{pk}/-/…`, or Datasette's 404.
    private func row(_ request: Request) async -> Result<(table: DatasetteTable, key: RowKey, rowID: SQLValue?), Answered> {
        let segment = request.parameters["table"] ?? ""
        guard let table = api.table(named: segment), !table.isView else {
            return .failure(Answered(response: Self.error("Table not found: \(TildeEncoding.decode(segment) ?? segment)", status: 404)))
        }
        let token = request.parameters["row"] ?? ""
        let texts = token.split(separator: ",", omittingEmptySubsequences: false).map { TildeEncoding.decode(String($0)) ?? String($0) }
        let notFound = Answered(response: Self.error("Record not found: [\(texts.map(Self.pythonRepr).joined(separator: ", "))]", status: 404))
        guard let values = table.key(token)?.values else { return .failure(notFound) }
        // The row's key as the table's writer (and its pages) know it, which may be the rowid where
        // Datasette names the primary key; and the rowid itself, which Datasette shows for a table without a key.
        let condition = table.addressColumns.map { "\(table.expression($0)) = ?" }.joined(separator: " AND ")
        let selected = table.schema.key.map(SQLIdentifier.quoted) + (table.usesRowID ? ["rowid"] : [])
        let sql = "SELECT \(selected.joined(separator: ", ")) FROM \(table.schema.quotedName) WHERE \(condition)"
        let store = writer.store
        let found: [SQLValue]?
        do {
            found = try await DatasetteAPI.inBackground({ try store.read { db in try db.row(sql, values)?.values } })
        } catch {
            return .failure(Answered(response: failure(error, what: "lookup of a row of \(table.schema.name)")))
        }
        guard let found else { return .failure(notFound) }
        return .success((table, RowKey(Array(found.prefix(table.schema.key.count))), table.usesRowID ? found.last : nil))
    }

    /// Re-reads the tables after a schema change, blocking: the tables' pages and writers, and
    /// with them Datasette's URLs' catalog (it follows their reload), so the next request finds
    /// the new table or columns.
    private var schemaReload: @Sendable () throws -> Void {
        let (catalog, tables) = (api.catalog, api.tables)
        return {
            if let tables { try tables.reloadSchema() } else { try catalog.reload() }
        }
    }

    /// Runs `write` on a thread of its own and answers `{"ok": true, …}` with its members (each
    /// value already JSON), or the refusal; re-reads the tables after a schema change (whose
    /// failure is logged: the write stands).
    private func answer(_ request: Request, altered: Bool, status: Int, what: String, _ write: @escaping @Sendable () throws -> [(String, String)]) async -> Response {
        let (reload, logger) = (schemaReload, logger)
        do {
            let members = try await DatasetteAPI.inBackground {
                let members = try write()
                // The write is committed: answering an error now would have a retrying client write it twice.
                if altered {
                    do {
                        try reload()
                    } catch {
                        logger.error("Datasette write API: \(what) is written, but the schema could not be read again to serve its change: \(error)")
                    }
                }
                return members
            }
            let actor = api.accessControl?.actor(for: request)
            logger.info("Datasette write API: \(what) by \(actor?.name ?? "anonymous")")
            return .json("{\"ok\": true" + members.map { ", \"\($0.0)\": \($0.1)" }.joined() + "}", status: status)
        } catch {
            return failure(error, what: what)
        }
    }

    /// Runs a row write through the table's ``TableWriter`` (one transaction, kept in the audit
    /// trail as written through the API) and answers `{"ok": true, …}` with `write`'s members, or
    /// the refusal in Datasette's words.
    private func answerWrite(
        _ request: Request, table: DatasetteTable, status: Int,
        _ write: (TableWriter, WriteAuthor) async throws(TableWriteError) -> [(String, String)]
    ) async -> Response {
        guard let author = author(of: request) else { return Self.error("Permission denied", status: 403) }
        let tableWriter = TableWriter(
            schema: table.schema, database: writer.store, audit: api.writers?.audit,
            foreignKeyColumns: table.schema.linkedColumns.map(\.column), logger: logger
        )
        do throws(TableWriteError) {
            let members = try await write(tableWriter, author)
            return .json("{\"ok\": true" + members.map { ", \"\($0.0)\": \($0.1)" }.joined() + "}", status: status)
        } catch {
            let answer = error.httpError
            return Self.error(Self.datasetteWords(error, table: table.schema.name), status: answer.status)
        }
    }

    /// A writer's refusal as Datasette words it (it passes SQLite's message on): "NOT NULL
    /// constraint failed: dogs.name", "CHECK constraint failed: age >= 0", "no such column: x";
    /// the writer's own words for the others.
    static func datasetteWords(_ error: TableWriteError, table: String) -> String {
        let checkPrefix = "refused by the table's rule: "
        switch error {
        case .constraint(let column?, .notNull, _): return "NOT NULL constraint failed: \(table).\(column)"
        case .constraint(let column?, .unique, _): return "UNIQUE constraint failed: \(table).\(column)"
        case .constraint(_, .check, let message) where message.hasPrefix(checkPrefix): return "CHECK constraint failed: " + message.dropFirst(checkPrefix.count)
        case .invalid(let column?, let message) where message == "\(table) has no such column": return "no such column: \(column)"
        default: return error.httpError.message
        }
    }

    private func failure(_ error: any Error, what: String) -> Response {
        switch error {
        case let refused as DatasetteWriter.Refused:
            // SQLite's words, as Datasette passes them on: the client's rows broke a rule.
            logger.info("Datasette write API: \(what) refused: \(refused.message)")
            return Self.error(refused.message, status: 400)
        case let convertible as any HTTPErrorConvertible:
            let answer = convertible.httpError
            return Self.error(answer.message, status: answer.status)
        default:
            logger.error("Datasette write API: \(what) failed: \(error)")
            return Self.error("The server could not answer this request.", status: 500)
        }
    }

    /// Rows as Datasette's JSON objects.
    static func rowsJSON(_ rows: [[(String, SQLValue)]]) -> String {
        var out = OutputBuffer(capacity: 64 * rows.count + 2)
        out.append("[")
        for (index, row) in rows.enumerated() {
            if index > 0 { out.append(", ") }
            out.append("{")
            for (position, (column, value)) in row.enumerated() {
                if position > 0 { out.append(", ") }
                out.appendJSONString(column)
                out.append(": ")
                DatasetteJSON.appendValue(value, to: &out)
            }
            out.append("}")
        }
        out.append("]")
        return out.string
    }

    /// Datasette's error document: `{"ok": false, "error": …, "errors": […], "status": …}`.
    static func error(_ messages: [String], status: Int) -> Response {
        var out = OutputBuffer(capacity: 128)
        out.append("{\"ok\": false, \"error\": ")
        out.appendJSONString(messages.joined(separator: "; "))
        out.append(", \"errors\": [")
        for (index, message) in messages.enumerated() {
            if index > 0 { out.append(", ") }
            out.appendJSONString(message)
        }
        out.append("], \"status\": ")
        out.append(status)
        out.append("}")
        return .json(out.string, status: status)
    }

    static func error(_ message: String, status: Int) -> Response {
        error([message], status: status)
    }

    /// `text` as Python's `repr` writes a string (Datasette's "Record not found: ['…']").
    static func pythonRepr(_ text: String) -> String {
        let quote: Character = text.contains("'") && !text.contains("\"") ? "\"" : "'"
        var out = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where Character(scalar) == quote: out += "\\" + String(quote)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append(quote)
        return out
    }
}
