import Escaping
import Logging
import MicroHTTP
import TableKit

/// The handlers of `/pages/…`: documents, sections, rows, the live event stream, and actions.
struct PageEndpoints: Sendable {
    let hosts: PageHosts
    let logger: Logger
    /// The site's title, in every page's bar.
    let siteTitle: String
    /// Who a request acts for and what it may read; every route that writes goes through its ``WriteGate``.
    let access: AccessControl
    /// The answers to inserts sent with an `Idempotency-Key`.
    let idempotency: IdempotencyKeys
    /// The CSV and NDJSON exports running.
    let exports: ExportSlots

    var registry: PageRegistry { hosts.registry }
    var settings: LiveSettings { hosts.settings }

    /// Adds every page route to `router`: the patterns of ``PageContract``, whose URLs the renderer writes.
    func register(on router: inout Router) {
        // Before the page's own route, which would take `todo.csv` for a page's name.
        for format in ExportFormat.allCases { router.on(.get, format.pattern, use: export(as: format)) }
        router.on(.get, PageContract.pagePattern, tryingImmediately: cachedPage, use: page)
        router.on(.get, PageContract.sectionPattern, use: section)
        router.on(.get, PageContract.rowPattern, use: row)
        router.on(.get, PageContract.eventsPattern, use: events)
        router.on(.get, Self.sharedEventsPath, use: sharedEvents)
        let gate = WriteGate(access: access, registry: registry, logger: logger)
        router.on(.post, PageContract.selectPattern, use: gate.guarding("select", select))
        router.on(.post, PageContract.actionPattern, use: gate.guarding(nil, action))
        router.on(.delete, PageContract.rowPattern, use: gate.guarding("delete", delete))
        // HTML forms cannot send DELETE; they post `_method=DELETE` to the row instead.
        router.on(.post, PageContract.rowPattern, use: gate.guarding("delete", delete))
        router.on(.post, PageContract.movePattern, use: gate.guarding("move", move))
        router.on(.post, PageContract.insertPattern, use: gate.guarding("insert", insert))
        router.on(.post, PageContract.prefetchPattern, use: prefetch)
    }

    // MARK: Reading

    func page(_ request: Request) async throws -> Response {
        if !request.prefersJSON, let message = try refusedQuery(request) {
            return try await pageRefusing(request, message: message)
        }
        let (definition, host, actor) = try await resolve(request)
        let after = try Self.afterRow(request.query)
        let position = try Self.startPosition(request.query, after: after)
        if after != nil || position != nil {
            // `?after=` (Datasette's `_next=`) or `?_at=` on the page pages its only section, as that section's URL does.
            guard let section = await host.onlySectionID else {
                throw HTTPError(400, "\(PageContract.Query.after), \(PageContract.Query.next) and \(PageContract.Query.at) page one section: follow the next link of the section to page (this page has several).")
            }
            return try await renderSection(section, after: after, at: position, request: request, definition: definition, host: host, actor: actor)
        }
        let limit = try Self.rowLimit(request.query, settings: settings)
        let json = request.prefersJSON
        let view = view(of: actor, definition: definition)
        let (rendered, stamp) = await host.renderPage(as: json ? .json : .html, limit: limit, controls: view.controls)
        let response = json ? .json(rendered) : PageDocument.page(definition: definition, variant: host.variant, fragment: rendered, siteTitle: siteTitle, view: view)
        hosts.renderCache.store(response.bodyBytes, for: RenderCache.Key(variant: host.variant, json: json, limit: limit, view: view), stamp: stamp)
        return json ? response : forViewer(response, actor: actor)
    }

    /// Why the page's query names no variant (a mistyped filter, an unknown column), once the
    /// viewer may read the page; nil when it names one, or when there is no such page.
    private func refusedQuery(_ request: Request) throws(HTTPError) -> String? {
        guard let definition = registry.page(inPath: request.parameters[PageContract.Parameter.page] ?? "") else { return nil }
        let actor = try access.authorizeRead(request, page: definition)
        guard case .failure(let error) = definition.variant(for: request.query, items: request.queryItems, viewer: actor) else { return nil }
        return error.message
    }

    /// For a browser whose query names no variant: the page as it is without a query, with
    /// `message` beside its forms (``PageDocument/withNotice(_:in:)``), answered 400. The reader
    /// keeps the bar and the forms to put the query right; a script still gets the plain 400.
    private func pageRefusing(_ request: Request, message: String) async throws -> Response {
        var plain = request
        plain.queryItems = []
        let (definition, host, actor) = try await resolve(plain)
        let view = view(of: actor, definition: definition)
        let (rendered, _) = await host.renderPage(as: .html, controls: view.controls)
        var response = PageDocument.page(
            definition: definition, variant: host.variant, fragment: PageDocument.withNotice(message, in: rendered), siteTitle: siteTitle, view: view
        )
        response.status = 400
        return forViewer(response, actor: actor)
    }

    /// A page document with the viewer's CSRF token in its head, for a signed-in browser; the
    /// cached bytes, shared by every viewer, never hold one.
    private func forViewer(_ document: Response, actor: Actor?) -> Response {
        guard let actor, let token = access.csrfToken(for: actor) else { return document }
        var document = document
        document.body = .bytes(PageDocument.withCSRFToken(document.bodyBytes, token))
        return document
    }

    /// A page unchanged since it was last rendered, answered from the cache on the event thread;
    /// nil (render it) on a miss or whenever anything needs checking that the async path reports.
    func cachedPage(_ request: Request) -> Response? {
        // Built once: this runs on the event thread for every page request.
        let query = request.query
        let actor = access.actor(for: request)
        guard let definition = registry.page(inPath: request.parameters[PageContract.Parameter.page] ?? ""),
              // A refusal is the async path's to answer.
              access.mayRead(actor, page: definition),
              case .success(let variant) = definition.variant(for: query, items: request.queryItems, viewer: actor),
              // A page of rows after one (`after`, `_next`) or from a position (`_at`) is not the page.
              query[PageContract.Query.after] == nil, query[PageContract.Query.next] == nil, query[PageContract.Query.at] == nil,
              // `try?` would flatten "no limit given" into a miss; a bad limit is the async path's to report.
              case .success(let limit) = Result(catching: { () throws(HTTPError) in try Self.rowLimit(query, settings: settings) }) else { return nil }
        let json = request.prefersJSON
        let view = view(of: actor, definition: definition)
        guard let host = hosts.existingHost(for: variant),
              let body = hosts.renderCache.body(for: RenderCache.Key(variant: variant, json: json, limit: limit, view: view), stamp: host.renderStamp) else {
            // A page about to be rendered (a request the async path will refuse is no miss).
            hosts.metrics?.renderCacheMisses.increment()
            return nil
        }
        hosts.metrics?.renderCacheHits.increment()
        return json ? .json(body) : forViewer(PageDocument.document(body), actor: actor)
    }

    func section(_ request: Request) async throws -> Response {
        let (definition, host, actor) = try await resolve(request)
        let after = try Self.afterRow(request.query)
        let position = try Self.startPosition(request.query, after: after)
        return try await renderSection(try Self.sectionID(request), after: after, at: position, request: request, definition: definition, host: host, actor: actor)
    }

    /// Rows of `section` after `after`, or from `position` (from the first when both are nil),
    /// `limit` (or `_size`) of them.
    private func renderSection(_ section: SectionID, after: RowID?, at position: RowPosition?, request: Request, definition: PageDefinition, host: PageHost, actor: Actor?) async throws -> Response {
        let controls = view(of: actor, definition: definition).controls
        let limit = try Self.rowLimit(request.query, settings: settings) ?? settings.pageRowLimit
        let format: RenderFormat = request.prefersJSON ? .json : .html
        let bytes = try await mapTableErrors {
            do {
                guard let work = host.detachedSection(section, after: after, at: position?.index, limit: limit, as: format, controls: controls) else {
                    return try await host.renderSection(section, after: after, at: position?.index, limit: limit, as: format, controls: controls)
                }
                // Not on the host's lane: pages of one variant are read side by side, each lane
                // still one database job at a time, and a busy lane refuses as for a host.
                let lane = hosts.lanes.leastBusy()
                try hosts.lanes.admit(lane)
                return try await lane.run(work)
            } catch TableError.unknownRow(let row) {
                throw HTTPError(400, "\(PageContract.Query.after) names \u{201C}\(row)\u{201D}, which is not a row of section \u{201C}\(section)\u{201D}.")
            }
        }
        return format == .json ? .json(bytes) : .html(bytes)
    }

    func row(_ request: Request) async throws -> Response {
        let (definition, host, actor) = try await resolve(request)
        let row = try Self.rowID(request)
        let format: RenderFormat = request.prefersJSON ? .json : .html
        let view = view(of: actor, definition: definition)
        let bytes = try await mapTableErrors { try await host.renderRow(row, as: format, controls: view.controls) }
        guard format == .html else { return .json(bytes) }
        let document = PageDocument.row(row, definition: definition, variant: host.variant, fragment: bytes, siteTitle: siteTitle, account: view.account)
        return forViewer(document, actor: actor)
    }

    /// `GET /pages/{page}/events`: Server-Sent Events of the variant's patches. Resumes after
    /// `Last-Event-ID` (or `?lastEventId=`, for a first connection that already has the page).
    func events(_ request: Request) async throws -> Response {
        let (definition, host, actor) = try await resolve(request)
        let query = request.query
        let format: PatchFormat
        switch query[PageContract.Query.format] {
        case nil, "html": format = view(of: actor, definition: definition).controls ? .html : .htmlWithoutControls
        case "json": format = .json
        case let other?: throw HTTPError(400, "format must be html or json; got '\(other)'.")
        }
        var lastSeen: Int?
        if let text = request.headers["Last-Event-ID"] ?? query[PageContract.Query.lastEventID], !text.isEmpty {
            // An id this server cannot have made is answered like a stale one: with a reset.
            lastSeen = Int(text) ?? -1
        }
        let stream = EventStream()
        // Reconnect quickly after a drop; the first line also gets the response under way.
        stream.write(Array("retry: 2000\n\n".utf8))
        host.channel.subscribe(stream, format: format, lastSeenID: lastSeen)
        access.closeWhenRevoked(stream, actor: actor)
        return Response(stream: stream)
    }

    // MARK: Actions

    func select(_ request: Request) async throws -> Response {
        let (_, host, _) = try await resolve(request)
        let row = try Self.rowID(request)
        let input = try ActionInput.parse(request)
        let (outcome, location) = try await perform(.init(page: host.variant.page, action: "select", row: row)) { try await host.selectRow(row) }
        switch outcome {
        case .selected:
            return await done(request, input: input, host: host, location: location)
        case .vetoed:
            throw HTTPError(409, "Row \u{201C}\(row)\u{201D} cannot be selected.")
        case .unknownRow:
            throw HTTPError(404, TableError.unknownRow(row).message)
        }
    }

    func action(_ request: Request) async throws -> Response {
        let (_, host, _) = try await resolve(request)
        let row = try Self.rowID(request)
        let name = try Self.validID(request.parameters[PageContract.Parameter.action] ?? "", what: "action name")
        let input = try ActionInput.parse(request)
        try await perform(.init(page: host.variant.page, action: name, row: row)) { try await host.performAction(named: name, onRow: row, values: input.values) }
        return await done(request, input: input, host: host)
    }

    func delete(_ request: Request) async throws -> Response {
        let (_, host, _) = try await resolve(request)
        let row = try Self.rowID(request)
        let input = try ActionInput.parse(request)
        if request.method == .post, input.fields[PageContract.Field.method]?.uppercased() != PageContract.Field.deleteMethod {
            throw HTTPError(405, "POST to a row deletes it only with _method=DELETE; use DELETE.", headers: ["Allow": "GET, HEAD, DELETE, OPTIONS"])
        }
        try await perform(.init(page: host.variant.page, action: "delete", row: row)) { try await host.deleteRow(row) }
        return await done(request, input: input, host: host)
    }

    func move(_ request: Request) async throws -> Response {
        let (_, host, _) = try await resolve(request)
        let row = try Self.rowID(request)
        let input = try ActionInput.parse(request)
        let section = SectionID(try Self.validID(try input.require(PageContract.Field.section), what: PageContract.Field.section))
        let placement: RowPlacement
        switch (input.fields[PageContract.Field.before], input.fields[PageContract.Field.after]) {
        case (let before?, nil) where !before.isEmpty: placement = .before(RowID(try Self.validID(before, what: PageContract.Field.before)))
        case (nil, let after?) where !after.isEmpty: placement = .after(RowID(try Self.validID(after, what: PageContract.Field.after)))
        case (nil, nil), ("", nil), (nil, ""): placement = .end
        default: throw HTTPError(400, "Give either \"before\" or \"after\", not both.")
        }
        switch placement {
        case .before(row), .after(row): throw HTTPError(400, "A row cannot be placed next to itself.")
        default: break
        }
        try await perform(.init(page: host.variant.page, action: "move", row: row)) { try await host.moveRow(row, toSection: section, placement: placement) }
        return await done(request, input: input, host: host)
    }

    /// Inserts a row; with an `Idempotency-Key` header, a write sent again with the same key is
    /// answered as the first was, and not done again (see ``IdempotencyKeys``).
    func insert(_ request: Request) async throws -> Response {
        guard let value = request.headers[IdempotencyKeys.header] else { return try await insertRow(request) }
        if let problem = IdempotencyKeys.problem(with: value) { throw HTTPError(400, problem) }
        let key = IdempotencyKeys.Key(actor: access.actor(for: request)?.id ?? "anonymous", path: request.path, value: value)
        switch idempotency.begin(key) {
        case .inProgress:
            throw HTTPError(409, "A write with this \(IdempotencyKeys.header) is still being done; send it again once that one is answered.", headers: ["Retry-After": "1"])
        case .answered(var response):
            response.headers.add("Idempotent-Replayed", "true")
            return response
        case .fresh:
            do {
                let response = try await insertRow(request)
                idempotency.finish(key, with: response)
                return response
            } catch let error as HTTPError {
                idempotency.finish(key, with: .error(error, for: request))
                throw error
            } catch {
                idempotency.finish(key, with: .error(HTTPError(500, "The row could not be added."), for: request))
                throw error
            }
        }
    }

    private func insertRow(_ request: Request) async throws -> Response {
        let (_, host, _) = try await resolve(request)
        let section = try Self.sectionID(request)
        let input = try ActionInput.parse(request)
        guard !input.values.isEmpty else { throw HTTPError(400, "The body needs the new row's fields, e.g. {\"title\": \"…\"}.") }
        let inserted = try await perform(.init(page: host.variant.page, action: "insert a row into", section: section)) { try await host.insertRow(inSection: section, values: input.values) }
        guard inserted.changed else {
            throw HTTPError(409, "Nothing was added: section \u{201C}\(section)\u{201D} does not take new rows, or not these values.")
        }
        guard !input.isForm || request.prefersJSON else { return await done(request, input: input, host: host) }
        // A script learns the new row's id and where to read it, without looking for it in the page.
        var json = #"{"ok":true,"version":"# + String(await host.version)
        var location: String?
        if let row = inserted.row {
            let variant = host.variant
            location = PageContract.rowJSONPath(row, basePath: variant.basePath) + (variant.query.isEmpty ? "" : "?" + variant.query)
            json += #","id":""# + JSONEscaping.escape(row.rawValue) + "\""
        }
        var response = Response.json(json + "}", status: input.isForm ? 200 : 201)
        if let location { response.headers.add("Location", location) }
        return response
    }

    /// `POST /pages/{page}/prefetch` with `{"rows": "id1,id2"}` (or a form): the browser is about to
    /// show these rows (`prefetchRows(at:)`).
    func prefetch(_ request: Request) async throws -> Response {
        let (_, host, _) = try await resolve(request)
        let input = try ActionInput.parse(request)
        let rows = try input.require(PageContract.Field.rows).split(separator: ",").map { RowID(String($0)) }
        await host.prefetchRows(rows)
        return Response(status: 204)
    }

    /// The answer to a successful action: back to the page (or to the `location` the delegate
    /// showed) for a form, the new version (and that location, for the client to follow) for a script.
    private func done(_ request: Request, input: ActionInput, host: PageHost, location: String? = nil) async -> Response {
        if input.isForm && !request.prefersJSON {
            return .redirect(to: location ?? host.variant.url)
        }
        var json = #"{"ok":true,"version":"# + String(await host.version)
        if let location {
            json += #","location":""# + JSONEscaping.escape(location) + "\""
        }
        return .json(json + "}")
    }

    // MARK: Resolving

    /// The page definition, the live host of the variant the request names (the viewer's own,
    /// for a per-viewer page), admitted to its lane (503 when the lane is too busy), and the
    /// request's actor, once it may read the page (resolved once: a session's cookie costs an HMAC).
    /// - Throws: 401 or 403 from ``AccessControl`` before anything else is looked at.
    func resolve(_ request: Request) async throws(HTTPError) -> (PageDefinition, PageHost, Actor?) {
        let name = request.parameters[PageContract.Parameter.page] ?? ""
        guard let definition = registry.page(inPath: name) else {
            throw HTTPError(404, "There is no page \u{201C}\(name)\u{201D}.")
        }
        // Writes were authorized by the ``WriteGate`` already; a page's readers are checked here.
        let actor = try access.authorizeRead(request, page: definition)
        let variant: PageVariant
        switch definition.variant(for: request.query, items: request.queryItems, viewer: actor) {
        case .success(let chosen): variant = chosen
        case .failure(let error): throw HTTPError(400, error.message)
        }
        let host: PageHost
        do {
            host = try await hosts.host(for: variant, definition: definition)
        } catch let error as HTTPError {
            throw error
        } catch let error as PageDefinition.VariantError {
            // The factory found that the variant names nothing, e.g. a product that does not exist.
            throw HTTPError(404, error.message)
        } catch let error as any HTTPErrorConvertible {
            throw error.httpError
        } catch {
            logger.error("page \(name) could not be built: \(error)")
            throw HTTPError(503, "The page \u{201C}\(name)\u{201D} is not available right now.")
        }
        try hosts.lanes.admit(host.lane)
        return (definition, host, actor)
    }

    /// How `actor` sees `definition`'s pages: what the bar says of their sign-in, with controls only when they may write.
    private func view(of actor: Actor?, definition: PageDefinition) -> PageDocument.View {
        let controls = access.mayWrite(actor, page: definition)
        return PageDocument.View(account: .of(actor, mayWrite: controls, readOnly: definition.access.isReadOnly), controls: controls)
    }

    /// The `limit` (or `_size`) query value, rows per section in one response; nil when not given.
    private static func rowLimit(_ query: [String: String], settings: LiveSettings) throws(HTTPError) -> Int? {
        guard let (name, text) = try aliased(PageContract.Query.limit, PageContract.Query.size, in: query) else { return nil }
        guard let value = Int(text), (1...settings.maxRowsPerRequest).contains(value) else {
            throw HTTPError(400, "\(name) must be a whole number from 1 to \(settings.maxRowsPerRequest).")
        }
        return value
    }

    /// The `after` (or `_next`) query value: the row a page of a section follows; nil when not given.
    private static func afterRow(_ query: [String: String]) throws(HTTPError) -> RowID? {
        guard let (name, text) = try aliased(PageContract.Query.after, PageContract.Query.next, in: query) else { return nil }
        return RowID(try validID(text, what: name))
    }

    /// The `_at` query value: where a page of a section starts; nil when not given.
    /// - Throws: 400 when it is no position, or when `after` is given too (they say where to start
    ///   in two ways).
    private static func startPosition(_ query: [String: String], after: RowID?) throws(HTTPError) -> RowPosition? {
        guard let position = try RowPosition.parse(query: query) else { return nil }
        guard after == nil else {
            throw HTTPError(400, "\(PageContract.Query.at) and \(PageContract.Query.after) (or \(PageContract.Query.next)) both say where the rows start; give one.")
        }
        return position
    }

    /// The value of `name` or of its alias, with the name it came by; both may be given only alike.
    private static func aliased(_ name: String, _ alias: String, in query: [String: String]) throws(HTTPError) -> (String, String)? {
        switch (query[name], query[alias]) {
        case (let value?, nil): return (name, value)
        case (nil, let value?): return (alias, value)
        case (let value?, let other?):
            guard value == other else { throw HTTPError(400, "\(name) and \(alias) say the same thing differently (\(value), \(other)); give one.") }
            return (name, value)
        case (nil, nil): return nil
        }
    }

    private static func rowID(_ request: Request) throws(HTTPError) -> RowID {
        RowID(try validID(request.parameters[PageContract.Parameter.row] ?? "", what: "row id"))
    }

    private static func sectionID(_ request: Request) throws(HTTPError) -> SectionID {
        SectionID(try validID(request.parameters[PageContract.Parameter.section] ?? "", what: "section id"))
    }

    /// Identifiers come from data and may hold any printable text, but not control characters,
    /// and not so much of it that it is clearly not an identifier.
    private static func validID(_ text: String, what: String) throws(HTTPError) -> String {
        guard !text.isEmpty, text.utf8.count <= 512,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw HTTPError(400, "The \(what) is malformed: it must be 1 to 512 bytes of printable text.")
        }
        return text
    }

    /// Runs an action: TableKit's errors become the statuses ``mapTableErrors(_:)`` gives, an
    /// ``HTTPError`` a delegate threw reaches the client as it is, and anything else a delegate
    /// threw (a failed store write) is logged once and answered as a server failure.
    private func perform<T>(_ failure: ActionFailure, _ body: () async throws -> T) async throws -> T {
        do {
            return try await mapTableErrors {
                do {
                    return try await body()
                } catch let error as any HTTPErrorConvertible {
                    // The client learns the status; the log keeps the cause (a lost connection, a
                    // value the database refused), which the answer does not name.
                    let answer = error.httpError
                    logger.log(level: answer.status >= 500 ? .error : .notice, "\(failure.logMessage(for: error)) (answered \(answer.status))")
                    throw answer
                }
            }
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("\(failure.logMessage(for: error))")
            throw failure.httpError(for: error)
        }
    }

    /// Runs a table action, turning TableKit's errors into the statuses a client should see.
    func mapTableErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as any HTTPErrorConvertible {
            throw error.httpError
        } catch let error as TableError {
            switch error {
            case .unknownRow, .unknownSection:
                throw HTTPError(404, error.message)
            case .notEditable, .notMovable, .vetoed:
                throw HTTPError(409, error.message)
            case .noSuchAction:
                throw HTTPError(404, error.message)
            case .inconsistentBatch, .unbalancedEndUpdates:
                logger.error("a page's delegates reported inconsistent updates: \(error.message)")
                throw HTTPError(500, "The page's data changed inconsistently; open pages were told to reload.")
            }
        }
    }
}
