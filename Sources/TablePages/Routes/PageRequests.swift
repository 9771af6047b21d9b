import Logging
import MicroHTTP
import Synchronization

/// Resolves page requests: the page, the actor and the variant on the event thread
/// (``resolve(_:for:actor:)``, which never blocks), then the variant's host (``host(for:)``).
/// Counts its resolutions, so a test can see that each request is resolved once.
struct PageRequests: Sendable {
    /// What the request will do to the page, which decides the access check.
    enum Purpose {
        /// Read it: ``AccessControl/authorizeRead(_:page:)``.
        case reading
        /// Change it: ``AccessControl/authorizeWrite(_:page:)`` (cross-site check, CSRF, the
        /// site's and the page's write rules), which also requires that the actor may read it.
        case writing
    }

    let hosts: PageHosts
    let access: AccessControl
    let logger: Logger
    private let counter = ResolutionCounter()

    init(hosts: PageHosts, access: AccessControl, logger: Logger) {
        self.hosts = hosts
        self.access = access
        self.logger = logger
    }

    /// How many requests were resolved, and their query, format, rows and view parsed, since the
    /// site started: once per page request.
    var resolutionCount: Int { counter.value.load(ordering: .relaxed) }

    /// The page `request` names. - Throws: 404 when there is none.
    func definition(of request: Request) throws(HTTPError) -> PageDefinition {
        let name = request.parameters[PageContract.Parameter.page] ?? ""
        guard let definition = hosts.registry.page(inPath: name) else {
            throw HTTPError(404, "There is no page \u{201C}\(name)\u{201D}.")
        }
        return definition
    }

    /// The page, the actor (once they may read it, or write it), the variant, the format, the rows
    /// and the view `request` names; `actor` or `definition` when the caller has it already (one
    /// request naming several pages; a write, whose unknown page is no attempt). The one place
    /// these are parsed. Cheap and non-blocking: it runs on the event thread for every page request.
    /// - Throws: 404 for no such page; 401 or 403 from ``AccessControl``.
    func resolve(_ request: Request, for purpose: Purpose, actor known: Actor?? = nil, definition named: PageDefinition? = nil) throws(HTTPError) -> PageRequest {
        counter.value.add(1, ordering: .relaxed)
        let definition = if let named { named } else { try self.definition(of: request) }
        let actor: Actor?
        switch (purpose, known) {
        case (.reading, let known?):
            if let refusal = access.readRefusal(for: known, page: definition) { throw refusal }
            actor = known
        case (.reading, nil): actor = try access.authorizeRead(request, page: definition)
        case (.writing, _): actor = try access.authorizeWrite(request, page: definition)
        }
        let query = request.query
        return PageRequest(
            definition: definition, actor: actor, variant: definition.variant(for: query, items: request.queryItems, viewer: actor),
            json: request.prefersJSON, window: Result { () throws(HTTPError) in try RowWindow.parse(query, maxRows: hosts.settings.maxRowsPerRequest) },
            view: view(of: actor, definition: definition)
        )
    }

    /// How `actor` sees `definition`'s pages: what the bar says of their sign-in, with controls only when they may write.
    func view(of actor: Actor?, definition: PageDefinition) -> PageDocument.View {
        let controls = access.mayWrite(actor, page: definition)
        return PageDocument.View(account: .of(actor, mayWrite: controls, readOnly: definition.access.isReadOnly), controls: controls)
    }

    /// The live host of the variant `page` names (the viewer's own, for a per-viewer page),
    /// admitted to its lane.
    /// - Throws: 400 when the query names no variant; 404 when the factory says the variant names
    ///   nothing; 503 when the page cannot be built or its lane is too busy.
    func host(for page: PageRequest) async throws(HTTPError) -> PageContext {
        let variant: PageVariant
        switch page.variant {
        case .success(let chosen): variant = chosen
        case .failure(let error): throw HTTPError(400, error.message)
        }
        let host: PageHost
        do {
            host = try await hosts.host(for: variant, definition: page.definition)
        } catch let error as HTTPError {
            throw error
        } catch let error as PageDefinition.VariantError {
            // The factory found that the variant names nothing, e.g. a product that does not exist.
            throw HTTPError(404, error.message)
        } catch let error as any HTTPErrorConvertible {
            throw error.httpError
        } catch {
            logger.error("page \(page.definition.name) could not be built: \(error)")
            throw HTTPError(503, "The page \u{201C}\(page.definition.name)\u{201D} is not available right now.")
        }
        try hosts.lanes.admit(host.lane)
        return PageContext(page: page, host: host)
    }

    /// ``resolve(_:for:actor:)`` then ``host(for:)``.
    func context(of request: Request, for purpose: Purpose) async throws(HTTPError) -> PageContext {
        try await host(for: try resolve(request, for: purpose))
    }

    private final class ResolutionCounter: Sendable {
        let value = Atomic<Int>(0)
    }
}
