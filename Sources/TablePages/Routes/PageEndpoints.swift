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
    /// Who a request acts for and what it may read.
    let access: AccessControl
    /// Resolves each request's page, actor, variant and host once; every page route goes through
    /// its ``PageMiddleware``.
    let pages: PageRequests
    /// The answers to inserts sent with an `Idempotency-Key`.
    let idempotency: IdempotencyKeys
    /// The CSV and NDJSON exports running.
    let exports: ExportSlots

    var registry: PageRegistry { hosts.registry }
    var settings: LiveSettings { hosts.settings }

    /// Adds every page route to `router`: the patterns of ``PageContract``, whose URLs the renderer writes.
    func register(on router: inout Router) {
        // Before the page's own route, which would take `todo.csv` for a page's name.
        let middleware = PageMiddleware(pages: pages, logger: logger)
        for format in ExportFormat.allCases { router.on(.get, format.pattern, use: middleware.reading(export(as: format))) }
        // The page itself is resolved on the event thread, answered from the cache when it can be,
        // and otherwise rendered with what that first step resolved.
        router.on(.get, PageContract.pagePattern, answering: cachedPage)
        router.on(.get, PageContract.sectionPattern, use: middleware.reading(section))
        router.on(.get, PageContract.rowPattern, use: middleware.readingRow(row))
        router.on(.get, PageContract.eventsPattern, use: middleware.reading(events))
        router.on(.get, Self.sharedEventsPath, use: sharedEvents)
        router.on(.post, PageContract.selectPattern, use: middleware.writing("select", select))
        router.on(.post, PageContract.actionPattern, use: middleware.writing(nil, action))
        router.on(.delete, PageContract.rowPattern, use: middleware.writing("delete", delete))
        // HTML forms cannot send DELETE; they post `_method=DELETE` to the row instead.
        router.on(.post, PageContract.rowPattern, use: middleware.writing("delete", delete))
        router.on(.post, PageContract.movePattern, use: middleware.writing("move", move))
        router.on(.post, PageContract.insertPattern, use: middleware.writing("insert", insert))
        router.on(.post, PageContract.prefetchPattern, use: middleware.reading(prefetch))
    }

    // MARK: Reading

    /// The page, from what ``cachedPage(_:)`` resolved on the event thread.
    func page(_ request: Request, resolved: Result<PageRequest, HTTPError>) async throws -> Response {
        let page = try resolved.get()
        if !page.json, case .failure(let error) = page.variant {
            return try await pageRefusing(page, message: error.message)
        }
        let context = try await pages.host(for: page)
        let (definition, host, actor) = (context.definition, context.host, context.actor)
        let window = try page.window.get()
        if window.isPaged {
            // `?after=` (Datasette's `_next=`) or `?_at=` on the page pages its only section, as that section's URL does.
            guard let section = host.onlySectionID else {
                throw HTTPError(400, "\(PageContract.Query.after), \(PageContract.Query.next) and \(PageContract.Query.at) page one section: follow the next link of the section to page (this page has several).")
            }
            return try await renderSection(section, window: window, context: context)
        }
        let (limit, json, view) = (window.limit, page.json, page.view)
        let (rendered, stamp) = await host.renderPage(as: json ? .json : .html, limit: limit, controls: view.controls)
        let response = json ? .json(rendered) : PageDocument.page(definition: definition, variant: host.variant, fragment: rendered, siteTitle: siteTitle, view: view)
        hosts.renderCache.store(response.bodyBytes, for: RenderCache.Key(variant: host.variant, json: json, limit: limit, view: view), stamp: stamp)
        return json ? response : forViewer(response, actor: actor)
    }

    /// For a browser whose query names no variant (a mistyped filter, an unknown column): the page
    /// as it is without a query, with `message` beside its forms (``PageDocument/withNotice(_:in:)``),
    /// answered 400. The reader keeps the bar and the forms to put the query right; a script still
    /// gets the plain 400.
    private func pageRefusing(_ page: PageRequest, message: String) async throws -> Response {
        let plain = page.selecting(page.definition.variant(for: [:], items: [], viewer: page.actor))
        let context = try await pages.host(for: plain)
        let (definition, host, actor, view) = (context.definition, context.host, context.actor, page.view)
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

    /// The first step of a page request, on the event thread: resolves the page, the actor and the
    /// variant once, and answers a page unchanged since it was last rendered from the cache; on a
    /// miss, or whenever anything needs reporting (a refusal, a bad query), hands what it resolved
    /// (or the error) to ``page(_:resolved:)``, later.
    func cachedPage(_ request: Request) -> HTTPAnswer {
        let resolved = Result { () throws(HTTPError) in try pages.resolve(request, for: .reading) }
        // A bad query or rows it names badly are the async path's to report.
        guard case .success(let page) = resolved, case .success(let variant) = page.variant, case .success(let window) = page.window else {
            return .later { try await self.page(request, resolved: resolved) }
        }
        // A page of rows after one (`after`, `_next`) or from a position (`_at`) is not the page.
        if window.isPaged {
            return sectionOnLane(page: page, variant: variant, window: window).map { .elsewhere($0) } ?? .later { try await self.page(request, resolved: resolved) }
        }
        let json = page.json
        // JSON is cached under one view for every viewer.
        let view = json ? .jsonView : page.view
        guard let host = hosts.existingHost(for: variant),
              let body = hosts.renderCache.body(for: RenderCache.Key(variant: variant, json: json, limit: window.limit, view: view), stamp: host.renderStamp) else {
            // A page about to be rendered (a request the async path will refuse is no miss).
            hosts.metrics?.renderCacheMisses.increment()
            return .later { try await self.page(request, resolved: resolved) }
        }
        hosts.metrics?.renderCacheHits.increment()
        return .now(json ? .json(body) : forViewer(PageDocument.document(body), actor: page.actor))
    }

    func section(_ request: Request, context: PageContext) async throws -> Response {
        try await renderSection(try Self.sectionID(request), window: try context.page.window.get(), context: context)
    }

    /// The rows of `section` that `window` names (from the first when it names no start).
    private func renderSection(_ section: SectionID, window: RowWindow, context: PageContext) async throws -> Response {
        let (host, controls) = (context.host, context.page.view.controls)
        let (after, position, limit) = (window.after, window.position, window.limit ?? settings.pageRowLimit)
        let format: RenderFormat = context.page.json ? .json : .html
        let bytes: [UInt8]
        do {
            if let work = host.detachedSection(section, after: after, at: position?.index, limit: limit, as: format, controls: controls) {
                // Not on the host's lane: pages of one variant are read side by side, each lane
                // still one database job at a time, and a busy lane refuses as for a host.
                let lanes = hosts.lanes(readingFrom: position?.index)
                let lane = lanes.leastBusy()
                try lanes.admit(lane)
                bytes = try await lane.run(work)
            } else {
                bytes = try await host.renderSection(section, after: after, at: position?.index, limit: limit, as: format, controls: controls)
            }
        } catch {
            throw sectionFailure(error, section: section)
        }
        return format == .json ? .json(bytes) : .html(bytes)
    }

    /// What a page of `section`'s rows that threw `error` answers: a row it names that the
    /// section lacks is the client's mistake (400), as are the errors of ``tableFailure(_:)``.
    func sectionFailure(_ error: any Error, section: SectionID) -> any Error {
        if case TableError.unknownRow(let row) = error {
            return HTTPError(400, "\(PageContract.Query.after) names \u{201C}\(row)\u{201D}, which is not a row of section \u{201C}\(section)\u{201D}.")
        }
        return tableFailure(error)
    }

    func row(_ request: Request, context: PageContext) async throws -> Response {
        let (definition, host, actor, view) = (context.definition, context.host, context.actor, context.page.view)
        let row = try Self.rowID(request)
        let format: RenderFormat = context.page.json ? .json : .html
        let (bytes, version) = try await mapTableErrors { try await host.renderRowWithVersion(row, as: format, controls: view.controls) }
        guard format == .html else { return .json(bytes) }
        let document = PageDocument.row(
            row, definition: definition, variant: host.variant, fragment: bytes, siteTitle: siteTitle, account: view.account, controls: view.controls,
            liveVersion: definition.rowVariantParameter == nil ? nil : version
        )
        return forViewer(document, actor: actor)
    }

    /// `GET /pages/{page}/events`: Server-Sent Events of the variant's patches. Resumes after
    /// `Last-Event-ID` (or `?lastEventId=`, for a first connection that already has the page).
    func events(_ request: Request, context: PageContext) async throws -> Response {
        let (definition, host, actor) = (context.definition, context.host, context.actor)
        let query = request.query
        let format: PatchFormat
        switch query[PageContract.Query.format] {
        case nil, "html": format = context.page.view.controls ? .html : .htmlWithoutControls
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
        try hosts.admitWatcher(stream, of: host, definition: definition, client: request.clientKey)
        stream.write(Array("retry: 2000\n\n".utf8))
        host.subscribe(stream, format: format, lastSeenID: lastSeen)
        access.closeWhenRevoked(stream, actor: actor)
        return Response(stream: stream)
    }

    // MARK: Actions

    func select(_ request: Request, context: PageContext, input: ActionInput) async throws -> Response {
        let host = context.host
        let row = try Self.rowID(request)
        let (outcome, location) = try await perform(.init(page: host.variant.page, action: "select", row: row)) { try await host.selectRow(row) }
        switch outcome {
        case .selected:
            return await done(context, input: input, location: location)
        case .vetoed:
            throw HTTPError(409, "Row \u{201C}\(row)\u{201D} cannot be selected.")
        case .unknownRow:
            throw HTTPError(404, TableError.unknownRow(row).message)
        }
    }

    func action(_ request: Request, context: PageContext, input: ActionInput) async throws -> Response {
        let host = context.host
        let row = try Self.rowID(request)
        let name = try Self.validID(request.parameters[PageContract.Parameter.action] ?? "", what: "action name")
        try await perform(.init(page: host.variant.page, action: name, row: row)) { try await host.performAction(named: name, onRow: row, values: input.values) }
        return await done(context, input: input)
    }

    func delete(_ request: Request, context: PageContext, input: ActionInput) async throws -> Response {
        let host = context.host
        let row = try Self.rowID(request)
        if request.method == .post, input.fields[PageContract.Field.method]?.uppercased() != PageContract.Field.deleteMethod {
            throw HTTPError(405, "POST to a row deletes it only with _method=DELETE; use DELETE.", headers: ["Allow": "GET, HEAD, DELETE, OPTIONS"])
        }
        try await perform(.init(page: host.variant.page, action: "delete", row: row)) { try await host.deleteRow(row) }
        return await done(context, input: input)
    }

    func move(_ request: Request, context: PageContext, input: ActionInput) async throws -> Response {
        let host = context.host
        let row = try Self.rowID(request)
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
        return await done(context, input: input)
    }

    /// Inserts a row; with an `Idempotency-Key` header, a write sent again with the same key is
    /// answered as the first was, and not done again (see ``IdempotencyKeys``).
    func insert(_ request: Request, context: PageContext, input: ActionInput) async throws -> Response {
        guard let value = request.headers[IdempotencyKeys.header] else { return try await insertRow(request, context: context, input: input) }
        if let problem = IdempotencyKeys.problem(with: value) { throw HTTPError(400, problem) }
        let key = IdempotencyKeys.ClientKey(actor: context.actor?.id ?? "anonymous", path: request.path, value: value)
        switch idempotency.begin(key) {
        case .inProgress:
            throw HTTPError(409, "A write with this \(IdempotencyKeys.header) is still being done; send it again once that one is answered.", headers: ["Retry-After": "1"])
        case .answered(var response):
            response.headers.add("Idempotent-Replayed", "true")
            return response
        case .fresh:
            do {
                let response = try await insertRow(request, context: context, input: input)
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

    private func insertRow(_ request: Request, context: PageContext, input: ActionInput) async throws -> Response {
        let host = context.host
        let section = try Self.sectionID(request)
        guard !input.values.isEmpty else { throw HTTPError(400, "The body needs the new row's fields, e.g. {\"title\": \"…\"}.") }
        let inserted = try await perform(.init(page: host.variant.page, action: "insert a row into", section: section)) { try await host.insertRow(inSection: section, values: input.values) }
        guard inserted.changed else {
            // The visitor learns that nothing happened; the developer learns where the row goes.
            logger.notice("an insert into section \(section.rawValue) of page \(host.variant.page) changed nothing: commit(.insert, forRowAt:values:) is delivered to the section's delegate at the index path one past its last row, not to the row that shows the add form; add the row to the data there and report it with insertRows(at:), or throw to refuse it")
            throw HTTPError(409, "Nothing was added: section \u{201C}\(section)\u{201D} does not take new rows, or not these values.")
        }
        guard !input.isForm || request.prefersJSON else { return await done(context, input: input) }
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
    func prefetch(_ request: Request, context: PageContext) async throws -> Response {
        let host = context.host
        let input = try ActionInput.parse(request)
        let rows = try input.require(PageContract.Field.rows).split(separator: ",").map { RowID(String($0)) }
        await host.prefetchRows(rows)
        return Response(status: 204)
    }

    /// The answer to a successful action: back to the page (or to the `location` the delegate
    /// showed) for a form, the new version (and that location, for the client to follow) for a script.
    private func done(_ context: PageContext, input: ActionInput, location: String? = nil) async -> Response {
        let host = context.host
        if input.isForm && !context.page.json {
            return .redirect(to: location ?? host.variant.url)
        }
        var json = #"{"ok":true,"version":"# + String(await host.version)
        if let location {
            json += #","location":""# + JSONEscaping.escape(location) + "\""
        }
        return .json(json + "}")
    }

    // MARK: Resolving

    private static func rowID(_ request: Request) throws(HTTPError) -> RowID {
        RowID(try validID(request.parameters[PageContract.Parameter.row] ?? "", what: "row id"))
    }

    private static func sectionID(_ request: Request) throws(HTTPError) -> SectionID {
        SectionID(try validID(request.parameters[PageContract.Parameter.section] ?? "", what: "section id"))
    }

    /// Identifiers come from data and may hold any printable text, but not control characters,
    /// and not so much of it that it is clearly not an identifier.
    static func validID(_ text: String, what: String) throws(HTTPError) -> String {
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
        } catch {
            throw tableFailure(error)
        }
    }

    /// The ``/MicroHTTP/HTTPError`` a ``/TableKit/TableError`` answers; any other error as it is
    /// (the router answers an ``/MicroHTTP/HTTPErrorConvertible`` one with its own status).
    func tableFailure(_ error: any Error) -> any Error {
        guard let error = error as? TableError else { return error }
        switch error {
        case .unknownRow, .unknownSection:
            return HTTPError(404, error.message)
        case .notEditable, .notMovable, .vetoed:
            return HTTPError(409, error.message)
        case .noSuchAction:
            return HTTPError(404, error.message)
        case .inconsistentBatch, .unbalancedEndUpdates:
            logger.error("a page's delegates reported inconsistent updates: \(error.message)")
            return HTTPError(500, "The page's data changed inconsistently; open pages were told to reload.")
        }
    }
}
