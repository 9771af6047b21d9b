import MicroHTTP
import TableKit

/// `GET /-/events`: one event stream for several pages, so that a browser follows all the pages its
/// tabs show over one connection (HTTP/1.1 browsers open at most six per host, and each
/// `/pages/{page}/events` would hold one).
extension PageEndpoints {
    /// The shared stream's path.
    static let sharedEventsPath = "/-/events"
    /// The query argument that names one page, given once per page.
    static let sharedEventsPageArgument = "page"
    /// The event telling a shared stream's reader that one of its pages could not be followed.
    static let refusedEvent = "refused"

    /// `GET /-/events?page=[lastEventID:]/pages/{page}[?query]&page=…`: the events of every page
    /// named, each page's after a `data:` line with its position in the request (from 0), so the
    /// data of an event reads `2\n{"version":…}`. Each page is replayed from its own last event id
    /// exactly as its own stream would be, and a `reset` ends that page's part only; a page that
    /// cannot be followed (unknown, not for this viewer, its lane busy, past a bound on its variants or its watchers) gets a `refused` event with
    /// the error its own stream would have answered, and the rest are followed. When none can be
    /// followed, or the request is malformed, the answer is that error. `Last-Event-ID` is ignored:
    /// a reader reconnects with each page's id in the query.
    func sharedEvents(_ request: Request) async throws -> Response {
        let values = request.queryItems.filter { $0.name == Self.sharedEventsPageArgument }.map(\.value)
        guard !values.isEmpty else {
            throw HTTPError(400, "Name the pages to follow: \(Self.sharedEventsPath)?page=/pages/todo&page=42:/pages/people (a page's URL, after the id of the last event you have and a colon).")
        }
        guard values.count <= settings.maxPagesPerStream else {
            throw HTTPError(400, "One stream follows at most \(settings.maxPagesPerStream) pages; this asked for \(values.count). Open another stream for the rest.")
        }
        let pages = try values.map { value throws(HTTPError) in try StreamedPage.parse(value) }
        let json: Bool
        switch request.query[PageContract.Query.format] {
        case nil, "html": json = false
        case "json": json = true
        case let other?: throw HTTPError(400, "format must be html or json; got '\(other)'.")
        }
        // One actor for every page: the request's credentials are the same for each.
        let actor = access.actor(for: request)
        let stream = EventStream()
        // Reconnect quickly after a drop; the first line also gets the response under way.
        stream.write(Array("retry: 2000\n\n".utf8))
        var followed = 0
        var refused: [(tag: [UInt8], error: HTTPError)] = []
        for (index, page) in pages.enumerated() {
            // Each page as its own stream's request would name it, with this request's credentials.
            var pageRequest = request
            pageRequest.parameters = [PageContract.Parameter.page: page.name]
            pageRequest.queryItems = page.queryItems.map { (name: $0.name, value: $0.value) }
            let tag = Array("data: \(index)\n".utf8)
            do {
                let context = try await self.pages.host(for: try self.pages.resolve(pageRequest, for: .reading, actor: actor))
                let format: PatchFormat = json ? .json : access.mayWrite(actor, page: context.definition) ? .html : .htmlWithoutControls
                // Subscribed at once, not after the last page's host is made: a host nobody
                // watches may be dropped to make room for a later page's (past the variants a
                // page keeps), and a dropped host's patches would reach no one, silently.
                try hosts.admitWatcher(stream, of: context.host, definition: context.definition, client: request.clientKey)
                context.host.subscribe(stream, format: format, lastSeenID: page.lastSeen, tag: tag)
                followed += 1
            } catch {
                refused.append((tag, error))
            }
        }
        if followed == 0, let first = refused.first { throw first.error }
        for (tag, error) in refused {
            // The body a script would have got from the page's own stream.
            let body = String(decoding: Response.error(error.status, error.message, json: true).bodyBytes, as: UTF8.self)
            stream.write(contentsOf: [tag, EventStream.encode(event: Self.refusedEvent, data: body)])
        }
        access.closeWhenRevoked(stream, actor: actor)
        return Response(stream: stream)
    }
}
