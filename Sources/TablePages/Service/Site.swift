import Logging
import MicroHTTP
import TableStore

/// The TablePages web service: the index, the pages with their live streams and actions, the
/// public assets and the health check, as one router.
///
///     var pages = PageRegistry()
///     pages.register(todoPage)
///     let site = Site(pages: pages, publicDirectory: "Public")
///     let server = Server(configuration: configuration, responder: site.router)
public struct Site: Sendable {
    /// The routes, ready to hand to a ``MicroHTTP/Server``.
    public let router: Router
    let hosts: PageHosts
    private let readiness: ReadinessCheck

    /// Builds the routes over `pages`; `/readyz` checks that `stores` answer.
    public init(
        pages: PageRegistry, publicDirectory: String, settings: LiveSettings = LiveSettings(),
        stores: [Store] = [], logger: Logger = Logger(label: "TablePages")
    ) {
        let files = StaticFiles(root: publicDirectory)
        var router = Router()
        router.immediate(.get, "/public/*path", files.respond)
        // The API description is a file in Public/, served at the conventional address.
        router.immediate(.get, "/openapi.json") { request in
            var file = request
            file.parameters["path"] = "openapi.json"
            return files.respond(to: file)
        }
        router.immediate(.get, "/") { request in
            request.prefersJSON ? .json(PageIndexJSON.render(pages)) : PageDocument.index(registry: pages)
        }
        let hosts = PageHosts(registry: pages, settings: settings, logger: logger)
        let watchdog = StallWatchdog(lanes: hosts.lanes.lanes, timeout: settings.stallTimeout)
        router.immediate(.get, "/healthz", watchdog.respond)
        let readiness = ReadinessCheck(
            watchdog: watchdog, stores: StoreProbe(stores: stores, lanes: hosts.lanes), timeout: settings.readinessTimeout
        )
        router.on(.get, "/readyz", use: readiness.respond)
        PageEndpoints(hosts: hosts, logger: logger).register(on: &router)
        self.router = router
        self.hosts = hosts
        self.readiness = readiness
    }

    /// Makes `/readyz` answer 503 from now on; call it when shutdown begins, before
    /// ``MicroHTTP/Server/shutdown()``, so load balancers stop sending requests.
    public func beginShutdown() {
        readiness.beginShutdown()
    }
}
