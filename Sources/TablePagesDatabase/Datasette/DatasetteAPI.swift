import Dispatch
import Escaping
import Foundation
import Logging
import MicroHTTP
import TableKit
import TablePages
import TableStore

/// Datasette's JSON API at Datasette's URLs, over the tables a SQLite file serves as pages, so a
/// script written for Datasette 0.65 runs unchanged:
///
/// - `GET /{database}/{table}.json`: a page of rows with Datasette's keys and values; `_shape`
///   (`arrays`, `objects`, `array`, `object`), `_col`, `_nocol`, `_size` (`max` is 1,000), `_next`
///   with `next` and `next_url`, `_sort`/`_sort_desc`, `_nl`, `_labels`, and the filters and
///   `_search` of the table pages.
/// - `GET /{database}/{table}/{pk}.json`: one row (`pk` is the key's values, or the rowid,
///   tilde-encoded and joined by commas, as in Datasette's `next` tokens).
/// - `GET /{database}/{table}` without `.json`: a redirect to the table's page.
/// - `GET /{database}/{table}.csv`, `/{database}/{table}/{pk}.csv`: the same rows as Datasette's CSV
///   (`DatasetteCSV`), and `/{database}/{table}/{pk}.blob?_blob_column=col`, a blob it links to.
/// - `GET /-/actor.json`: who the request is from, as Datasette writes it (for `dclient actor`).
/// - `POST` to Datasette 1.0a41's write URLs (`/-/insert`, `/-/upsert`, `/-/update`, `/-/delete`,
///   `/{database}/-/create`): see `DatasetteWriteAPI`.
///
/// `database` is the file's name without its extension (``databaseName(forFile:)``); names in
/// paths are tilde-encoded as Datasette encodes them (``/Escaping/TildeEncoding``), and a
/// percent-encoded name is read too.
///
///     let api = try DatasetteAPI(store: store, databaseName: DatasetteAPI.databaseName(forFile: path))
///     let sql = SQLPage(runner: runner, datasette: api, onChange: { heard in store.onChange { heard(.unknown) } })
///     let site = Site(title: "Shop", features: [try DatabaseTables(store: store), sql])
///
/// A ``SQLPage`` adds its routes, since Datasette's URLs answer its canned queries and `?sql=` too.
public struct DatasetteAPI: Sendable {
    /// The database's name in URLs, unencoded.
    public let databaseName: String
    private let database: Store
    let catalog: DatasetteCatalog
    private let labels = DatasetteLabels()
    private let logger: Logger
    /// The SQL page whose canned queries answer at `/{database}/{query}.json` before a table of
    /// the same name, as Datasette resolves a canned query's name before a table's; nil for none.
    var cannedQueries: QueryPages?
    /// Who a request is from, for `/-/actor.json`; nil answers every request as anonymous.
    var accessControl: AccessControl?
    /// The most bytes of a CSV streamed with `_stream=1` (`serve --datasette-csv-max-bytes`):
    /// past them the body ends with Datasette's "CSV contains more than … bytes".
    public var csvStreamMaxBytes = DatasetteAPI.defaultCSVStreamMaxBytes
    /// The default of ``csvStreamMaxBytes``: 100 MiB, as Datasette's `max_csv_mb` is 100.
    public static let defaultCSVStreamMaxBytes = 100 * 1024 * 1024
    /// Whether the write API (`DatasetteWriteAPI`) may change the database (`serve --writable`);
    /// without it every write is refused with 403.
    public var writable = false
    /// The most rows one insert or upsert may carry (`serve --datasette-max-insert-rows`); more are
    /// Datasette's 400 "Too many rows, maximum allowed is N".
    public var maxInsertRows = DatasetteAPI.defaultMaxInsertRows
    /// The writers of the served tables (`serve --writable`): every row the write API writes goes
    /// through a ``TableWriter`` of the table, keeping it in these writers' audit trail.
    public var writers: TableWriters?
    /// The feature serving the database's tables as pages: after `/-/create` or `alter` it serves
    /// the new or altered table (``DatabaseTables/reloadSchema()``) before the write is answered,
    /// so the table's page is there when the client asks for it; and whoever changes the schema,
    /// Datasette's URLs follow its reload. Nil for none: they then follow only the write API's changes.
    public var tables: DatabaseTables?
    /// The default of ``maxInsertRows``: 100, Datasette's `max_insert_rows`.
    public static let defaultMaxInsertRows = 100

    /// The database's path, `/` and its tilde-encoded name: its tables are under it.
    public var path: String { "/" + TildeEncoding.encode(databaseName) }

    /// The first path segments of TablePages' own routes with more than one segment: a database
    /// of one of these names would be answered by them (``refusal(ofDatabaseName:)``).
    public static let reservedNames: Set<String> = ["pages", "public", "-"]

    /// Reads the tables of `store`'s database (as ``DatabaseTablePages`` serves them).
    /// - Throws: ``/TableStore/Store`` read errors, and a ``NameRefused`` for a reserved `databaseName`.
    /// `labelColumns` (a configuration file's `label_column`s) label the rows of those tables in `_labels`.
    public init(store: Store, databaseName: String, labelColumns: [String: String] = [:], logger: Logger = Logger(label: "TablePages")) throws {
        if let refusal = Self.refusal(ofDatabaseName: databaseName) { throw NameRefused(message: refusal) }
        self.databaseName = databaseName
        self.database = store
        self.logger = logger
        self.catalog = try DatasetteCatalog(store: store, labels: DatabaseLabelColumns(overrides: labelColumns))
    }

    /// A database name that cannot be served at Datasette's URLs.
    public struct NameRefused: Error, CustomStringConvertible {
        /// Why, and what to do instead.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    /// The name Datasette gives the database in the file at `path`: the file's name without its
    /// last extension (`/data/shop.db` → `shop`).
    public static func databaseName(forFile path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// Why a database named `name` cannot be served at `/{name}/…`, or nil when it can: the
    /// name is empty, or its path segment is the first segment of one of TablePages' own routes.
    public static func refusal(ofDatabaseName name: String) -> String? {
        if name.isEmpty { return "A database with an empty name cannot have Datasette's URLs (/{database}/{table}.json)." }
        let segments = [name, TildeEncoding.encode(name)]
        guard let taken = segments.first(where: reservedNames.contains) else { return nil }
        return "The database is named \u{201C}\(name)\u{201D}, but /\(taken)/… are TablePages' own URLs, so Datasette's URLs (/\(taken)/{table}.json) cannot be served for it. Rename or link the file (e.g. \(name)-data.db) to have them; its tables are served at /pages/… either way."
    }

    /// Adds the routes after the site's own, which they never shadow: their first segment is the
    /// database's name (tilde-encoded, and as it is when that differs).
    func register(on router: inout Router) {
        var prefixes = [TildeEncoding.encode(databaseName)]
        if databaseName != prefixes[0] { prefixes.append(databaseName) }
        // The catalog follows the schema whoever changes it: a table another process creates answers here too.
        let catalog = catalog
        tables?.followSchema { try catalog.reload() }
        router.on(.get, "/-/actor.json", use: { request in self.actorResponse(request) })
        for prefix in prefixes where !prefix.contains("/") {
            // Datasette (Python's parse_qsl) keeps a malformed escape such as `C%Z` as it is.
            router.on(.get, "/\(prefix)/:table", keepingMalformedEscapes: true, use: { request in await self.tableResponse(request) })
            router.on(.get, "/\(prefix)/:table/:row", keepingMalformedEscapes: true, use: { request in await self.rowResponse(request) })
        }
        DatasetteWriteAPI(api: self, writer: DatasetteWriter(store: database, logger: logger), logger: logger).register(on: &router, prefixes: prefixes.filter { !$0.contains("/") })
    }

    // MARK: Handlers

    private func tableResponse(_ request: Request) async -> Response {
        if let cannedQueries, let response = await cannedQueries.answerDatasetteCanned(request, segment: request.parameters["table"] ?? "") {
            return response
        }
        let (segment, isCSV) = segment(request.parameters["table"] ?? "", suffix: ".csv")
        guard let table = table(named: segment) else {
            return Self.error("Table not found", status: 404)
        }
        guard request.prefersJSON || isCSV else {
            let query = Self.formEncoded(request.queryItems)
            return .redirect(to: PageContract.pagePath(named: DatabaseTablePages.pageName(ofTable: table.schema.name)) + (query.isEmpty ? "" : "?" + query), status: 302)
        }
        let parsed: DatasetteTableRequest
        do {
            parsed = try DatasetteTableRequest(request.queryItems, table: table)
        } catch {
            return error.extended ? .json(DatasetteExtras.error(error.message), status: 400) : Self.error(error.message, status: 400)
        }
        let facets: DatasetteFacets
        do {
            facets = try DatasetteFacets(request.queryItems, table: table, shape: parsed.shape)
        } catch {
            // Datasette hands SQLite's refusal of a facet's column on, under this heading.
            return Self.error(error.message, status: 400, title: DatasetteFacets.errorTitle)
        }
        var visitorSQL: (any QueryRunner)?
        if !parsed.whereClauses.isEmpty {
            // SQL from the visitor: only who may run SQL on the SQL page, and run as it runs it.
            guard let cannedQueries, cannedQueries.sqlRefusal(for: request) == nil else { return Self.error("_where= is not allowed", status: 403) }
            visitorSQL = cannedQueries.visitorSQL
        }
        let reader = DatasetteTableReader(database: database, table: table, request: parsed, labels: labels, visitorSQL: visitorSQL)
        if isCSV, !(request.query["_stream"] ?? "").isEmpty {
            return await csvStream(reader, table: table, request: request)
        }
        let started = DispatchTime.now()
        let page: DatasetteTableReader.Page
        let facetResult: DatasetteFacets.Result
        do {
            (page, facetResult) = try await Self.inBackground {
                let page = try reader.read(counting: !isCSV && !parsed.shape.isRowsOnly)
                let counted = facets.counts && !isCSV ? try reader.read(facets, rowCount: page.count ?? 0) : DatasetteFacets.Result()
                return (page, counted)
            }
        } catch {
            return failure(error)
        }
        if isCSV {
            return csvResponse(columns: page.columns, rows: page.rows, addresses: page.addresses, labels: page.labels, table: table, request: request)
        }
        let milliseconds = QueryResult.milliseconds(since: started)
        // Datasette moves the sort to the end of a table's next_url (it is part of the keyset), not a view's.
        let following = page.next.map { nextURL(request, next: $0, sort: table.isView ? nil : parsed.sort) }
        let search = parsed.filterItems.first { $0.name == DatabaseTableQuery.searchParameter }?.value
        let context = DatasetteJSON.TableContext(
            database: databaseName, table: table, request: parsed,
            humanDescription: DatasetteDescription.sentence(filters: parsed.filterItems, search: search, columnSearches: parsed.columnSearches, throughs: parsed.throughs, sort: parsed.sort),
            nextURL: following, expandable: labels.expandableColumns(of: table), milliseconds: milliseconds,
            facets: facetResult,
            facetLinks: DatasetteJSON.FacetLinks(origin: "http://" + (request.headers["Host"] ?? "localhost"), path: request.path, items: request.queryItems),
            allowsSQL: cannedQueries.map { $0.sqlRefusal(for: request) == nil } ?? false
        )
        let extended = !parsed.extras.isEmpty && !parsed.shape.isRowsOnly
        var response: Response = .json(extended ? DatasetteJSON.extended(page, context: context, extras: parsed.extras) : DatasetteJSON.table(page, context: context))
        if parsed.shape == .array, parsed.newlineDelimited { response.headers["Content-Type"] = "text/plain" }
        if let following { response.headers["Link"] = "<\(following)>; rel=\"next\"" }
        return response
    }

    /// Datasette's `/-/actor.json`: `{"actor": null}` for an anonymous request, else the actor's
    /// id and name (a signed-in browser's session, or an access token).
    private func actorResponse(_ request: Request) -> Response {
        var out = OutputBuffer(capacity: 128)
        out.append("{\"actor\": ")
        if let actor = accessControl?.actor(for: request) {
            out.append("{\"id\": ")
            out.appendJSONString(actor.id)
            out.append(", \"name\": ")
            out.appendJSONString(actor.name)
            out.append("}")
        } else {
            out.append("null")
        }
        out.append("}")
        return .json(out.string)
    }

    private func rowResponse(_ request: Request) async -> Response {
        guard let table = table(named: request.parameters["table"] ?? ""), !table.isView else {
            return Self.error("Table not found", status: 404)
        }
        let shape: DatasetteTableRequest
        do {
            shape = try DatasetteTableRequest(rowQuery: request.queryItems)
        } catch {
            return Self.error(error.message, status: 400)
        }
        let (csvToken, isCSV) = segment(request.parameters["row"] ?? "", suffix: ".csv")
        let (token, isBlob) = segment(csvToken, suffix: ".blob")
        let address = table.addressColumns
        guard let key = table.key(token) else {
            return Self.error("Record not found", status: 404)
        }
        let (keyTexts, keyValues) = key
        let columns = table.usesRowID ? [DatasetteTable.rowIDName] + table.columns : table.columns
        let condition = address.map { "\(table.expression($0)) = ?" }.joined(separator: " AND ")
        let sql = "SELECT \(columns.map(table.expression).joined(separator: ", ")) FROM \(table.schema.quotedName) WHERE \(condition) LIMIT 1"
        let started = DispatchTime.now()
        let row: [SQLValue]?
        do {
            row = try await Self.inBackground { [database] in try database.snapshot { try $0.row(sql, keyValues)?.values } }
        } catch {
            return failure(error)
        }
        guard let row else { return Self.error("Record not found", status: 404) }
        if isBlob {
            return blobResponse(row, columns: columns, table: table, token: token, request: request)
        }
        if isCSV {
            let address = table.addressColumns.compactMap { columns.firstIndex(of: $0) }.map { row[$0] }
            return csvResponse(columns: columns, rows: [row], addresses: [address], labels: [:], table: table, request: request)
        }
        let milliseconds = QueryResult.milliseconds(since: started)
        return .json(DatasetteJSON.row(row, columns: columns, database: databaseName, table: table, keyValues: keyTexts, request: shape, milliseconds: milliseconds))
    }

    // MARK: Helpers

    /// A path segment without its `suffix` and whether it had it: `.csv` asks for Datasette's CSV
    /// of a table or row, `.blob` for a row's blob. A name that itself ends so is tilde-encoded
    /// (`x~2Ecsv`), so the suffix is never a name's.
    private func segment(_ segment: String, suffix: String) -> (name: String, hasSuffix: Bool) {
        guard segment.hasSuffix(suffix), segment.count > suffix.count else { return (segment, false) }
        return (String(segment.dropLast(suffix.count)), true)
    }

    /// Datasette's `/{database}/{table}/{pk}.blob?_blob_column=col`: the value of `col` as bytes,
    /// an attachment named `{table}-{pk}-{col}.blob`, as Datasette's CSV links a blob.
    private func blobResponse(_ row: [SQLValue], columns: [String], table: DatasetteTable, token: String, request: Request) -> Response {
        let column = request.query["_blob_column"] ?? ""
        guard let index = columns.firstIndex(of: column) else { return Self.error("\(column) is not a valid column", status: 400) }
        let bytes: [UInt8] = switch row[index] {
        case .null: []
        case .blob(let data): Array(data)
        case let value: Array(DatasetteCSV.text(value).utf8)
        }
        var response = Response(status: 200, body: bytes)
        response.headers["Content-Type"] = "application/binary"
        response.headers["X-Content-Type-Options"] = "nosniff"
        let name = "\(table.schema.name)-\(token)-\(column).blob".filter { $0 != "\"" && $0 != "\r" && $0 != "\n" }
        response.headers["Content-Disposition"] = "attachment; filename=\"\(name)\""
        return response
    }

    /// Datasette's CSV answer: `text/plain` to show in a browser, or with `_dl` a `text/csv`
    /// attachment named after the table.
    private func csvResponse(columns: [String], rows: [[SQLValue]], addresses: [[SQLValue]], labels: [String: [SQLValue: DatasetteLabels.Label]], table: DatasetteTable, request: Request) -> Response {
        let text = DatasetteCSV.document(columns: columns, rows: rows, addresses: addresses, labels: labels, blobs: blobLinks(table, request), withHeader: request.query["_header"] != "off")
        var response = Response(status: 200, body: Array(text.utf8))
        for (name, value) in csvHeaders(table, request) { response.headers[name] = value }
        return response
    }

    /// Datasette's `_stream=1`: every row of the CSV, streamed (``DatasetteCSVStream``); `_next`
    /// with it is Datasette's 400.
    private func csvStream(_ reader: DatasetteTableReader, table: DatasetteTable, request: Request) async -> Response {
        guard (request.query["_next"] ?? "").isEmpty else { return Self.error("_next not allowed for CSV streaming", status: 400) }
        let stream = DatasetteCSVStream(reader: reader, blobs: blobLinks(table, request), maxBytes: csvStreamMaxBytes, withHeader: request.query["_header"] != "off")
        do {
            let body = try await stream.start(logger: logger) { reader in try await Self.inBackground { try reader.read(counting: false) } }
            let headers = csvHeaders(table, request)
            var response = Response(body: body, contentType: headers["Content-Type"] ?? "text/plain; charset=utf-8")
            for (name, value) in headers where name != "Content-Type" { response.headers[name] = value }
            return response
        } catch {
            return failure(error)
        }
    }

    /// Where a CSV's blobs are: this host's URL of the table.
    private func blobLinks(_ table: DatasetteTable, _ request: Request) -> DatasetteCSV.BlobLinks {
        DatasetteCSV.BlobLinks(tablePath: "http://\(request.headers["Host"] ?? "localhost")\(path)/\(TildeEncoding.encode(table.schema.name))")
    }

    /// A CSV's content type, and with `_dl` its attachment's name.
    private func csvHeaders(_ table: DatasetteTable, _ request: Request) -> [String: String] {
        guard !(request.query["_dl"] ?? "").isEmpty else { return ["Content-Type": "text/plain; charset=utf-8"] }
        return ["Content-Type": "text/csv; charset=utf-8", "Content-Disposition": "attachment; filename=\"\(table.schema.name).csv\""]
    }

    /// The table a path segment names: tilde-decoded, else as it is.
    func table(named segment: String) -> DatasetteTable? {
        if let decoded = TildeEncoding.decode(segment), let table = catalog.table(named: decoded) { return table }
        return catalog.table(named: segment)
    }

    /// The answer to a failed read: a client's mistake as 400, a read past the time limit as its
    /// 503, anything else logged and answered 500 without details.
    private func failure(_ error: any Error) -> Response {
        switch error {
        case let refusal as DatasetteTableReader.Refusal:
            return Self.error(refusal.message, status: 400, title: refusal.title)
        case let search as DatabaseSearchError:
            // Datasette's words for SQL SQLite refused: its message, titled "Invalid SQL".
            return Self.error(search.reason, status: 400, title: "Invalid SQL")
        case let convertible as any HTTPErrorConvertible:
            let answer = convertible.httpError
            var response = Self.error(answer.message, status: answer.status)
            for (name, value) in answer.headers { response.headers[name] = value }
            return response
        default:
            logger.error("a Datasette API read of \(databaseName) failed: \(error)")
            return Self.error("The server could not answer this request.", status: 500)
        }
    }

    /// `next_url` as Datasette writes it: this URL with `_next` (and the sort parameter) moved
    /// to the end with their new values, parameters without a value left out, form-encoded.
    private func nextURL(_ request: Request, next: String, sort: (column: String, descending: Bool)?) -> String {
        var replaced: Set<String> = ["_next"]
        var added = [(name: "_next", value: next)]
        if let sort {
            let name = sort.descending ? "_sort_desc" : "_sort"
            replaced.insert(name)
            added.append((name, sort.column))
        }
        let kept = request.queryItems.filter { !replaced.contains($0.name) && !$0.value.isEmpty }
        let host = request.headers["Host"] ?? "localhost"
        return "http://\(host)\(request.path)?" + Self.formEncoded(kept + added)
    }

    /// `name=value&…` as Python's `urlencode` writes it: a space as `+`, everything but
    /// `A–Z a–z 0–9 _ . - ~` as `%XX`.
    static func formEncoded(_ items: [(name: String, value: String)]) -> String {
        let encode = { (text: String) in PercentEncoding.encode(text).replacingOccurrences(of: "%20", with: "+") }
        return items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    private static func error(_ message: String, status: Int, title: String? = nil) -> Response {
        .json(DatasetteJSON.error(message, status: status, title: title), status: status)
    }

    /// Runs a blocking read on a dispatch thread: never on Swift's cooperative pool or an event thread.
    static func inBackground<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
