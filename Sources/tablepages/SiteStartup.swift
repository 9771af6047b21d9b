import Logging
import ServiceLifecycle
import TablePages

/// The site `serve` runs, built once the services before it in the group (the PostgreSQL
/// databases) run, then served with what its features run beside it, until the group shuts down.
struct SiteStartup: Service {
    let logger: Logger
    let build: @Sendable () async throws -> SiteService

    /// Builds the site, then runs its services and it in a group of their own, which the outer
    /// group's graceful shutdown reaches.
    func run() async throws {
        let service = try await build()
        try await ServiceGroup(services: service.site.services + [service], logger: logger).run()
    }
}
