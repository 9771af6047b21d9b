import Foundation
import Logging
import MicroHTTP
import ServiceLifecycle
import TableKit

/// The TablePages web service: the index, the pages with their live streams and actions, the
/// public assets and the health check, and the routes of its features, as one router.
///
///     var pages = PageRegistry()
///     pages.register(todoPage)
///     let site = Site(title: "My library", features: [pages])
///     try await site.run(port: 8080)
///
/// A site is built whole from its ``SiteFeature``s; its ``router`` is read-only, for handing to a
/// ``/MicroHTTP/Server``: a route of one's own is a feature's.
public struct Site: Sendable {
    /// The routes, ready to hand to a ``/MicroHTTP/Server``.
    public let router: Router
    /// The site's name, in the bar of every page and as the index's title and heading.
    public let title: String
    /// Who requests act for and what they may write (see ``AccessSettings``).
    public let access: AccessControl
    /// The pages of every feature, in index order, as they are now (a feature may add pages while
    /// the site runs: ``SiteBuilder/livePages``).
    public var pages: PageRegistry { livePages.registry }
    private let livePages: SitePages
    /// What the features run beside the server (a database's clients, say), in the order they
    /// were added: ``SiteService`` runs after them in one `ServiceGroup`, and stops before them.
    public let services: [any Service]
    let hosts: PageHosts
    /// Resolves each page request once; counts how many it resolved.
    let pageRequests: PageRequests
    private let readiness: ReadinessCheck

    /// The site of `pages` alone, with `readinessProbes` and `entries`: the same as
    /// ``init(title:features:publicDirectory:settings:logger:metrics:access:)`` with `pages` as its one feature.
    public init(
        pages: PageRegistry, title: String = "TablePages", publicDirectory: String? = nil, settings: LiveSettings = LiveSettings(),
        readinessProbes: [any ReadinessProbe] = [], logger: Logger = Logger(label: "TablePages"), metrics: ServiceMetrics? = nil,
        access: AccessSettings = AccessSettings(), entries: [IndexEntry] = []
    ) {
        self.init(
            title: title, features: [SiteParts(pages: pages, readinessProbes: readinessProbes, entries: entries)], publicDirectory: publicDirectory,
            settings: settings, logger: logger, metrics: metrics, access: access
        )
    }

    /// Builds the site of `features`, named `title`: each adds its pages, readiness probes, index
    /// entries, services and routes (``SiteFeature/add(to:)``), in order; their routes come after
    /// the site's own. Under `/public/` it serves ``SiteAssets`` and the pages'
    /// ``PageRegistry/publicFiles``, all built in; `publicDirectory`, for development, is a folder
    /// whose files win over the built-in ones at the same path (read once, then kept in memory).
    /// `/readyz` checks that the features' readiness probes answer (TablePagesDatabase makes a
    /// `Store` one). With `metrics`, it counts what the pages do and serves `GET /metrics` (see
    /// ``ServiceMetrics``). `access` says who may write: by default anyone may read and only
    /// actors (signed in with a link from ``AccessControl/makeSignInPath()``, or with a token)
    /// may write; each page's ``PageDefinition/access`` narrows it.
    public init(
        title: String = "TablePages", features: [any SiteFeature], publicDirectory: String? = nil, settings: LiveSettings = LiveSettings(),
        logger: Logger = Logger(label: "TablePages"), metrics: ServiceMetrics? = nil, access: AccessSettings = AccessSettings()
    ) {
        let accessControl = AccessControl(settings: access, logger: logger)
        var builder = SiteBuilder(title: title, access: accessControl, logger: logger)
        for feature in features { feature.add(to: &builder) }
        let (pages, readinessProbes, entries) = (builder.pages, builder.readinessProbes, builder.entries)
        let livePages = builder.livePages
        livePages.start(with: pages)
        var builtIn = SiteAssets.files
        builtIn.add(pages.publicFiles)
        var isDirectory: ObjCBool = false
        if let publicDirectory, !FileManager.default.fileExists(atPath: publicDirectory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            logger.warning("the public directory \(publicDirectory) does not exist; serving the built-in files only")
        }
        let files = StaticFiles(root: publicDirectory, builtIn: builtIn)
        var router = Router()
        router.errorPage = .site(title: title)
        SiteGuard(allowedHosts: access.allowedHosts, corsOrigins: access.corsOrigins).install(on: &router)
        router.immediate(.get, "/public/*path", files.respond)
        // The API description is one of the public files, served at the conventional address.
        router.immediate(.get, "/openapi.json") { request in
            var file = request
            file.parameters["path"] = "openapi.json"
            return files.respond(to: file)
        }
        // A token `tablepages token create` printed a moment ago works on its first request.
        router.use { request, context, next in
            guard let wait = accessControl.recheckUnknownToken(request) else { return next(request, context) }
            return .elsewhere { finish in wait { next(request, context).run(for: request) { finish(.success($0)) } } }
        }
        let hosts = PageHosts(pages: livePages, settings: settings, logger: logger, metrics: metrics?.live)
        // Only the pages this viewer may read (a private page's name and summary are not for
        // everyone) that are listed.
        let listed = { @Sendable (request: Request) in
            let actor = accessControl.actor(for: request)
            return (actor, livePages.registry.pages.filter { $0.isListed && accessControl.mayRead(actor, page: $0) })
        }
        let index = { @Sendable (request: Request, actor: Actor?, readable: [PageDefinition], counts: [String: Int?]) -> Response in
            guard !request.prefersJSON else { return .json(PageIndexJSON.render(readable, siteTitle: title, counts: counts, entries: entries)) }
            // Sign-in is offered to an anonymous browser only where it would let it write some page.
            let account = PageDocument.Account.of(actor, mayWrite: access.anonymousWrites, readOnly: readable.allSatisfy(\.access.isReadOnly))
            return PageDocument.index(pages: readable, siteTitle: title, account: account, counts: counts, entries: entries)
        }
        // On the event thread when no page counts its rows; counting reads a database, on a lane.
        // The actor and the pages they may read are resolved once, on the event thread.
        router.on(.get, "/", answering: { request in
            let (actor, readable) = listed(request)
            guard readable.contains(where: { $0.countRows != nil }) else { return .now(index(request, actor, readable, [:])) }
            return .later { index(request, actor, readable, await PageRowCounts.count(readable, lanes: hosts.lanes)) }
        })
        let watchdog = StallWatchdog(lanes: hosts.lanes.lanes, timeout: settings.stallTimeout)
        router.immediate(.get, "/healthz", watchdog.respond)
        let readiness = ReadinessCheck(
            watchdog: watchdog, probes: ReadinessProbes(readinessProbes, lanes: hosts.lanes), timeout: settings.readinessTimeout
        )
        router.on(.get, "/readyz", use: readiness.respond)
        if let metrics {
            router.immediate(.get, "/metrics") { _ in metrics.response(reading: hosts) }
        }
        SignInEndpoints(access: accessControl, siteTitle: title).register(on: &router)
        let pageRequests = PageRequests(hosts: hosts, access: accessControl, logger: logger)
        self.pageRequests = pageRequests
        PageEndpoints(hosts: hosts, logger: logger, siteTitle: title, access: accessControl, pages: pageRequests, idempotency: IdempotencyKeys(byteLimit: settings.idempotencyByteLimit), exports: ExportSlots(limit: settings.maxConcurrentExports)).register(on: &router)
        for addRoutes in builder.routes { addRoutes(&router) }
        self.router = router
        self.services = builder.services
        self.livePages = livePages
        self.access = accessControl
        self.title = title
        self.hosts = hosts
        self.readiness = readiness
    }

    /// Makes `/readyz` answer 503 from now on; call it when shutdown begins, before
    /// ``/MicroHTTP/Server/shutdown()``, so load balancers stop sending requests.
    public func beginShutdown() {
        readiness.beginShutdown()
    }
}
