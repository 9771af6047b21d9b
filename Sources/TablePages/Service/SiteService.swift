import Logging
import MicroHTTP
import ServiceLifecycle

/// A ``Site`` served over HTTP, as a swift-service-lifecycle `Service`: run it in a `ServiceGroup`
/// beside a program's own services, and the group's graceful shutdown (SIGTERM, SIGINT) stops it
/// gracefully: `/readyz` answers 503, requests in flight finish, live streams end.
///
///     let site = Site(pages: pages, title: "My library")
///     let service = SiteService(site: site, configuration: ServerConfiguration(port: 8080))
///     let group = ServiceGroup(services: site.services + [service, myOwnService], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
///
/// The site's own ``Site/services`` (its features' database clients, say) go before it, so that
/// the group starts them first and stops them after it.
///     try await group.run()
public struct SiteService: Service {
    /// The site served.
    public let site: Site
    /// The server that serves it; its ``/MicroHTTP/Server/port`` is the real one once it listens.
    public let server: Server
    private let onListening: @Sendable (_ port: Int) -> Void

    /// Serves `site` with the server's `configuration`. Once the server listens, `onListening` is told its port; by default
    /// the log names the link that signs a browser in (``AccessControl/logSignInLink(at:level:)``).
    public init(
        site: Site, configuration: ServerConfiguration,
        logger: Logger = Logger(label: "MicroHTTP"), onListening: (@Sendable (_ port: Int) -> Void)? = nil
    ) {
        self.site = site
        self.server = Server(configuration: configuration, responder: site.router, errorPage: site.router.errorPage, logger: logger)
        let host = configuration.host
        self.onListening = onListening ?? { port in
            site.access.logSignInLink(at: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
        }
    }

    /// Serves until the group shuts down gracefully, then stops gracefully; throws when the server
    /// cannot listen.
    public func run() async throws {
        try await server.run(onListening: onListening, onShutdown: site.beginShutdown)
    }
}
