import Logging
import MicroHTTP
import ServiceLifecycle

extension Site {
    /// Serves the site until the process is asked to stop (SIGINT or SIGTERM), then stops
    /// gracefully: `/readyz` answers 503, requests in flight finish, live streams end. The server
    /// logs the address it listens on, and the site the link that signs a browser in.
    ///
    ///     try await site.run(port: 8080)
    ///
    /// This runs a ``SiteService`` after the site's ``services`` in a `ServiceGroup`; to run the site beside services of
    /// your own, or to choose more of the server's settings, make that group yourself.
    /// - Parameters:
    ///   - host: the address to listen on; the loopback address by default.
    ///   - port: the port; 0 lets the system choose one, which the log names.
    public func run(host: String = "127.0.0.1", port: Int) async throws {
        let service = SiteService(site: self, configuration: ServerConfiguration(host: host, port: port))
        let group = ServiceGroup(services: services + [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "TablePages"))
        try await group.run()
    }
}
