import MicroHTTP

/// The checks a ``Site`` makes in front of every route, on the event thread: the `Host` must be
/// allowed (421 otherwise), and CORS preflights from listed origins are answered; every response
/// to a listed origin gets its CORS headers.
struct SiteGuard: Sendable {
    let hosts: HostAllowList
    let cors: CORSPolicy

    /// The guard for `allowedHosts` (the loopback names when empty) and `corsOrigins`.
    init(allowedHosts: [String], corsOrigins: [String]) {
        hosts = HostAllowList(allowedHosts.isEmpty ? HostAllowList.loopbackNames : allowedHosts)
        cors = CORSPolicy(corsOrigins)
    }

    /// Installs the checks on `router` (see ``/MicroHTTP/Router/admission`` and ``/MicroHTTP/Router/finishing``).
    func install(on router: inout Router) {
        let (hosts, cors) = (hosts, cors)
        router.admission = { request in
            hosts.refusal(for: request) ?? cors.preflight(request)
        }
        if !cors.isEmpty {
            router.finishing = { request, response in cors.decorate(&response, for: request) }
        }
    }
}
