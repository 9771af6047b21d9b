/// What a browser sees for an error: the look of the site, which is the application's business,
/// not the server's. JSON clients always get `{"error":{"status":…,"message":…}}`.
///
/// ``Response/error(_:_:json:)`` makes a neutral plain-text page; the ``Router`` that answers
/// (and the server, for the refusals it makes itself, through the error page it is given, `Server(configuration:responder:errorPage:logger:)`)
/// replaces it with its ``Router/errorPage``, keeping the status and header fields such as `Allow`.
///
///     router.errorPage = ErrorPage { status, message in
///         .html("<h1>\(status)</h1><p>\(HTMLEscaping.escape(message))</p>", status: status)
///     }
public struct ErrorPage: Sendable {
    private let render: @Sendable (_ status: Int, _ message: String) -> Response

    /// A page made by `render` from the status and the message for the client; the response it
    /// returns gives the body and header fields, `Response.error`'s status and fields are kept.
    public init(_ render: @escaping @Sendable (_ status: Int, _ message: String) -> Response) {
        self.render = render
    }

    /// The neutral default: `text/plain`, the status line and the message, linking nothing.
    public static let plainText = ErrorPage { status, message in
        .text(String(status) + " " + HTTPStatus.reasonPhrase(status) + "\n\n" + message + "\n", status: status)
    }

    /// `response` with this page as its body when it is a browser's error page not yet rendered
    /// (see ``Response/errorMessage``); any other response as it is.
    public func apply(to response: Response) -> Response {
        guard let message = response.errorMessage else { return response }
        let page = render(response.status, message)
        var result = response
        result.body = page.body
        result.errorMessage = nil
        for (name, value) in page.headers { result.headers[name] = value }
        return result
    }
}
