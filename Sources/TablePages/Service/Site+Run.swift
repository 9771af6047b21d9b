import MicroHTTP

extension Site {
    /// Serves the site until the process is asked to stop (SIGINT or SIGTERM), then stops
    /// gracefully: `/readyz` answers 503, requests in flight finish, live streams end. The server
    /// logs the address it listens on, and the site the link that signs a browser in.
    ///
    ///     try await site.run(port: 8080)
    ///
    /// To choose more of the server's settings, or to stop it another way, make a
    /// ``/MicroHTTP/Server`` over ``router`` yourself, as this method does.
    /// - Parameters:
    ///   - host: the address to listen on; the loopback address by default.
    ///   - port: the port; 0 lets the system choose one, which the log names.
    public func run(host: String = "127.0.0.1", port: Int) async throws {
        let server = Server(configuration: ServerConfiguration(host: host, port: port), responder: router)
        try server.start()
        let address = host.contains(":") ? "[\(host)]" : host
        access.logSignInLink(at: "http://\(address):\(server.port)")
        _ = await TerminationSignal.wait()
        beginShutdown()
        await server.shutdown()
    }
}
