/// Watches what a ``Server`` does, for metrics: each request answered, and event streams opening and
/// closing. Set one as ``ServerConfiguration/observer``; without one the server pays nothing for it.
///
/// Its methods run on libmicrohttpd's event threads, once per request: they must be quick and must
/// never block.
public protocol ServerObserver: Sendable {
    /// A response was queued (for an event stream: its head). `route` is the pattern of the route
    /// that answered, such as `/pages/:page/rows/:row/select` (see ``Response/route``), or nil when
    /// none did: no route matched, or the server refused the request before routing it. `duration`
    /// runs from the request's head arriving to its response being queued.
    func requestAnswered(method: HTTPMethod, route: String?, status: Int, duration: Duration)

    /// An event stream was opened and is now counted among the server's open streams.
    func eventStreamOpened()

    /// An event stream that ``eventStreamOpened()`` reported ended.
    func eventStreamClosed()
}
