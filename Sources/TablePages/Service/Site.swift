import MicroHTTP

/// The TablePages web service: its routes over the page registry and the public assets.
///
///     let site = Site(publicDirectory: "Public")
///     let server = Server(configuration: configuration, responder: site.router)
public struct Site: Sendable {
    /// The folder served under `/public/`.
    public let publicDirectory: String
    /// The routes, ready to hand to a ``MicroHTTP/Server``.
    public let router: Router

    /// Builds the routes.
    public init(publicDirectory: String) {
        self.publicDirectory = publicDirectory
        let files = StaticFiles(root: publicDirectory)
        var router = Router()
        router.immediate(.get, "/public/*path", files.respond)
        router.immediate(.get, "/healthz", { _ in .json(#"{"status":"ok"}"#) })
        router.immediate(.get, "/", Self.index)
        self.router = router
    }

    static func index(_ request: Request) -> Response {
        if request.prefersJSON { return .json(#"{"pages":[]}"#) }
        return .html(PageDocument.wrap(title: "TablePages", body: "<main class=\"index\"><h1>TablePages</h1><p>No pages are registered yet.</p></main>"))
    }
}
