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

    /// Installs the checks on `router` as ``/MicroHTTP/Middleware``: the CORS headers first, so
    /// that they reach the host check's refusals too.
    func install(on router: inout Router) {
        let (hosts, cors) = (hosts, cors)
        if !cors.isEmpty {
            router.use { request, context, next in
                next(request, context).map { response in
                    var response = response
                    cors.decorate(&response, for: request)
                    return response
                }
            }
        }
        router.use { request, context, next in
            if let refusal = hosts.refusal(for: request) ?? cors.preflight(request) { return .now(refusal) }
            return next(request, context)
        }
    }
}
