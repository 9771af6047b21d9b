import Escaping
import Foundation
import GRDB
import Logging
import MicroHTTP
import TableKit
import TablePages
import TableStore

/// The SQL page over a SQLite file (or a ``QueryRunner`` of another database): any read-only
/// `SELECT`, with named parameters (`:name`) as form fields, as HTML, JSON and CSV, on a
/// connection that cannot write (``QueryRunner``), one query at a time with a few waiting
/// (`QueryGate`):
///
/// - `GET /-/sql?sql=…&name=…`: the form and the result table;
/// - `GET /-/sql.json?sql=…`: the result as Datasette 0.65 writes it (`_shape=arrays|objects|array`, `_nl`);
/// - `GET /-/sql.csv?sql=…`: the result as CSV, written as the table pages' CSV;
/// - at Datasette's URLs, `GET /{database}.json?sql=…` (the same JSON), and `GET /{database}?sql=…`
///   redirected to the SQL page;
/// - `GET /-/queries/{name}` (`.json`, `.csv`): a canned query's page, for every reader
///   whatever ``QueryAccess`` says; also at Datasette's `/{database}/{name}.json` when a
///   ``SQLPage`` has a ``DatasetteAPI``.
///
/// ``QueryAccess`` says who may run SQL; errors in the SQL are 400 with SQLite's message, and
/// SQL that would write, `ATTACH`, change a setting by `PRAGMA` or call a function that touches
/// files is refused with a 400 that says why.
///
/// A ``SQLPage`` adds it to a site, with its live pages and its links on the index:
///
///     let runner = try QueryPages.sqliteRunner(path: "shop.db", limits: QueryLimits())
///     let site = Site(title: "Shop", features: [SQLPage(runner: runner, onChange: { heard in store.onChange { heard(.unknown) } })])
public struct QueryPages: Sendable {
    /// The SQL page's path.
    public static let path = "/-/sql"
    /// Where the canned queries' pages are: `/-/queries/{name}`.
    public static let cannedPrefix = "/-/queries/"

    /// The page of the canned query named `name` (tilde-encoded, as page names are).
    public static func cannedPath(of name: String) -> String {
        cannedPrefix + TildeEncoding.encode(name)
    }

    /// The index's links (``/TablePages/Site``'s `entries`): the SQL page (unless `access` is
    /// ``QueryAccess/off``), then each of `canned`.
    public static func indexEntries(access: QueryAccess, canned: [CannedQuery]) -> [IndexEntry] {
        let sql = access == .off ? [] : [IndexEntry(title: "SQL", summary: "Run a read-only SELECT of your own", path: path, queryField: "sql")]
        return sql + canned.map { IndexEntry(title: $0.title, summary: $0.description ?? "", path: cannedPath(of: $0.name)) }
    }

    private let runner: any QueryRunner
    /// Whether each canned query, and the visitor's SQL, also has a live page (``LiveQueryPages``,
    /// ``LiveQueryPages/registerSQL(runner:access:maxQueries:onChange:in:)``), which the form links to.
    var linksLivePages = false
    private let canned: [String: CannedQuery]
    private let gate = QueryGate()
    private let databaseName: String
    private let access: QueryAccess
    private let siteTitle: String
    private let accessControl: AccessControl
    private let logger: Logger

    /// A runner of visitors' SQL on the SQLite file at `path` (read-only, on a connection of its
    /// own): for a ``SQLPage``, whose live pages share it.
    /// - Throws: GRDB's error when the file cannot be opened.
    public static func sqliteRunner(path: String, limits: QueryLimits) throws -> any QueryRunner {
        try SQLiteQueryRunner(path: path, limits: limits)
    }

    /// The SQL page over `runner` (a PostgreSQL database's, from TablePagesPostgres);
    /// `databaseName` is its name at Datasette's URLs. Each of `canned` is a page of its own at
    /// ``cannedPath(of:)``.
    init(
        runner: any QueryRunner, databaseName: String, access: QueryAccess = .anyone, canned: [CannedQuery] = [], siteTitle: String,
        accessControl: AccessControl, logger: Logger = Logger(label: "TablePages")
    ) {
        self.runner = runner
        self.canned = Dictionary(canned.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.databaseName = databaseName
        self.access = access
        self.siteTitle = siteTitle
        self.accessControl = accessControl
        self.logger = logger
    }

    /// Adds the SQL page's routes, and Datasette's `/{database}.json` and `/{database}` when
    /// `datasette` is true (the name is not one of ``DatasetteAPI/reservedNames``).
    func register(on router: inout Router, datasette: Bool = true) {
        // The router answers `/-/sql.json` (and `/{database}.json`) by the route without the
        // suffix, whose request then prefers JSON.
        router.on(.get, Self.path + ".csv", use: { request in await self.answer(request, format: .csv) })
        router.on(.get, Self.path, use: { request in await self.answer(request, format: request.prefersJSON ? .json : .html) })
        router.on(.get, Self.cannedPrefix + ":query.csv", use: { request in await self.answerCanned(request, format: .csv) })
        router.on(.get, Self.cannedPrefix + ":query", use: { request in await self.answerCanned(request, format: request.prefersJSON ? .json : .html) })
        guard datasette, DatasetteAPI.refusal(ofDatabaseName: databaseName) == nil else { return }
        var prefixes = [TildeEncoding.encode(databaseName)]
        if databaseName != prefixes[0] { prefixes.append(databaseName) }
        for prefix in prefixes where !prefix.contains("/") {
            // Datasette keeps a malformed escape (`?sql=select+'C%Z'`) as it is.
            router.on(.get, "/\(prefix)", keepingMalformedEscapes: true, use: { request in
                if request.prefersJSON { return await self.answer(request, format: .json) }
                let query = DatasetteAPI.formEncoded(request.queryItems)
                return .redirect(to: request.query["sql"] == nil ? "/" : Self.path + "?" + query, status: 302)
            })
        }
    }

    /// The formats the SQL page answers in.
    enum Format {
        case html, json, csv
    }

    /// What a page runs: the visitor's SQL (the SQL page) or a canned query.
    private struct Subject {
        var sql: String
        var query: CannedQuery?
        var path: String
    }

    /// The runner of visitors' SQL (read-only connection, authorizer, time, row and size limits).
    var visitorSQL: any QueryRunner { runner }

    /// Why the viewer of `request` may not run SQL of their own (`--sql`), or nil when they may.
    func sqlRefusal(for request: Request) -> String? {
        access.refusal(signedIn: accessControl.actor(for: request) != nil)
    }

    private func answer(_ request: Request, format: Format) async -> Response {
        if let refusal = sqlRefusal(for: request) {
            return failure(refusal, status: 403, format: format)
        }
        return await run(Subject(sql: request.query["sql"] ?? "", query: nil, path: Self.path), request: request, format: format)
    }

    /// Datasette's `/{database}/{query}(.json)` when `segment` names a canned query: its JSON, or
    /// a redirect to its page; nil when it names none (a table's, then).
    func answerDatasetteCanned(_ request: Request, segment: String) async -> Response? {
        guard let query = cannedQuery(named: segment) else { return nil }
        guard request.prefersJSON else {
            let items = DatasetteAPI.formEncoded(request.queryItems)
            return .redirect(to: Self.cannedPath(of: query.name) + (items.isEmpty ? "" : "?" + items), status: 302)
        }
        return await run(Subject(sql: query.sql, query: query, path: Self.cannedPath(of: query.name)), request: request, format: .json)
    }

    private func cannedQuery(named segment: String) -> CannedQuery? {
        TildeEncoding.decode(segment).flatMap { canned[$0] } ?? canned[segment]
    }

    private func answerCanned(_ request: Request, format: Format) async -> Response {
        let segment = request.parameters["query"] ?? ""
        guard let query = cannedQuery(named: segment) else {
            return failure("There is no query named \u{201C}\(TildeEncoding.decode(segment) ?? segment)\u{201D}.", status: 404, format: format)
        }
        return await run(Subject(sql: query.sql, query: query, path: Self.cannedPath(of: query.name)), request: request, format: format)
    }

    private func run(_ subject: Subject, request: Request, format: Format) async -> Response {
        let sql = subject.sql
        var shape = QueryJSON.Shape.arrays
        if format == .json, let name = request.query["_shape"] {
            guard let chosen = QueryJSON.Shape(rawValue: name) else { return failure("Invalid _shape: \(name)", status: 400, format: format) }
            shape = chosen
        }
        guard !sql.allSatisfy(\.isWhitespace) else {
            guard format == .html else { return failure("Give the SQL to run as ?sql=SELECT…", status: 400, format: format) }
            return page(request, subject: subject, result: nil, error: nil, status: 200)
        }
        let values = Dictionary(request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let outcome: Result<QueryResult, any Error>
        do {
            outcome = .success(try await gate.run { try await DatasetteAPI.inBackground { [runner] in try runner.run(sql, parameters: values) } })
        } catch {
            outcome = .failure(error)
        }
        let (message, status) = Self.explanation(of: outcome, logger: logger)
        switch format {
        case .html:
            return page(request, subject: subject, result: try? outcome.get(), error: message, status: status)
        case .json:
            // A query that failed as SQL is a whole document with `ok: false`, as Datasette's;
            // anything else (the time limit, a busy server) is its error object.
            if case .failure(let error) = outcome, !(error is QueryRefusal) { return failure(message ?? "", status: status, format: .json) }
            var params = Self.firstValues(request.queryItems.filter { $0.name != "sql" && $0.name != "_shape" })
            // As Datasette: each named parameter the request leaves out is there, empty.
            for name in SQLParameterNames.names(in: sql) where !name.hasPrefix("_") && !params.contains(where: { $0.name == name }) {
                params.append((name, ""))
            }
            let context = QueryJSON.Context(
                database: databaseName, queryName: subject.query?.name, sql: sql, params: params, shape: shape,
                allowsSQL: sqlRefusal(for: request) == nil,
                newlineDelimited: ["on", "1", "true"].contains(request.query["_nl"] ?? "")
            )
            var response: Response = .json(QueryJSON.document(try? outcome.get(), error: message, context: context), status: status)
            if shape == .array, context.newlineDelimited { response.headers["Content-Type"] = "text/plain" }
            return response
        case .csv:
            guard case .success(let result) = outcome else { return failure(message ?? "", status: status, format: .csv) }
            var out = OutputBuffer(capacity: 256 + result.rows.count * 32)
            DatabaseExportEncoding.appendCSVHeader(result.columns, to: &out)
            for row in result.rows { DatabaseExportEncoding.appendCSVRow(row[...], to: &out) }
            var response = Response(status: 200, body: Array(out.string.utf8))
            response.headers["Content-Type"] = "text/csv; charset=utf-8"
            return response
        }
    }

    private func page(_ request: Request, subject: Subject, result: QueryResult?, error: String?, status: Int) -> Response {
        let names = SQLParameterNames.names(in: subject.sql)
        let parameters = names.map { name in (name, request.query[name] ?? "") }
        let content = QueryDocument.Content(
            title: subject.query?.title ?? "SQL", description: subject.query?.description, path: subject.path, sql: subject.sql,
            editable: subject.query == nil, parameters: parameters, result: result, error: error,
            query: DatasetteAPI.formEncoded(request.queryItems),
            livePath: livePath(of: subject, parameters: parameters.filter { !$0.1.isEmpty }.map { (name: $0.0, value: $0.1) })
        )
        return QueryDocument.response(content, siteTitle: siteTitle, status: status)
    }

    /// The live page of `subject` with `parameters` (those given), when ``linksLivePages``.
    private func livePath(of subject: Subject, parameters: [(name: String, value: String)]) -> String? {
        guard linksLivePages else { return nil }
        guard let query = subject.query else { return LiveQueryPages.sqlPagePath(sql: subject.sql, parameters: parameters) }
        let values = DatasetteAPI.formEncoded(parameters)
        return PageContract.pagePath(named: LiveQueryPages.pageName(of: query.name)) + (values.isEmpty ? "" : "?" + values)
    }

    private func failure(_ message: String, status: Int, format: Format) -> Response {
        switch format {
        case .html: SiteDocument.response(title: "SQL", siteTitle: siteTitle, body: "<main class=\"tp-index tp-sql\"><h1>SQL</h1><p class=\"tp-sql-error\" role=\"alert\">" + HTMLEscaping.escape(message) + "</p></main>", status: status)
        case .json: .json(QueryJSON.error(message, status: status, title: status == 400 ? "Invalid SQL" : nil), status: status)
        case .csv: .text(message + "\n", status: status)
        }
    }

    /// The message and status a query's outcome is answered with: nil and 200 for rows, the
    /// client's mistake as 400, a refusal of the server (time limit, busy) as its status, anything
    /// else logged and answered 500 without details.
    static func explanation(of outcome: Result<QueryResult, any Error>, logger: Logger) -> (message: String?, status: Int) {
        switch outcome {
        case .success: return (nil, 200)
        case .failure(let refusal as QueryRefusal): return (refusal.message, 400)
        case .failure(let convertible as any HTTPErrorConvertible): return (convertible.httpError.message, convertible.httpError.status)
        case .failure(let error):
            // Reflecting: a database driver's plain description may hide what the server said.
            logger.error("an SQL page query failed: \(String(reflecting: error))")
            return ("The server could not run this query.", 500)
        }
    }

    /// The first value of each name, in the order the names first appear.
    static func firstValues(_ items: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0.name).inserted }
    }
}
