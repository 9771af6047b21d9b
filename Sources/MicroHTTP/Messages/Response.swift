import Escaping

/// One HTTP response: a status, header fields, and either bytes or an open event stream.
///
///     Response.html("<h1>Hi</h1>")
///     Response.json(#"{"ok":true}"#, status: 201)
///     Response.redirect(to: "/pages/todo")
public struct Response: Sendable {
    /// What follows the header.
    public enum Body: Sendable {
        /// A complete body, sent with a `Content-Length`.
        case bytes([UInt8])
        /// An open-ended Server-Sent Events stream that other code writes to.
        case stream(EventStream)
        /// A body of unknown length written while it is sent (see ``BodyStream``).
        case streamed(BodyStream)
        /// A complete body whose libmicrohttpd response was built once (see ``PreparedResponse``);
        /// it is queued as is while the response's ``Response/headers`` are still the prepared ones.
        case prepared(PreparedResponse)
    }

    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields; `Content-Length` and `Date` are added by the server.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// The pattern of the route that produced this response, e.g. `/pages/:page`: set by ``Router``
    /// for a server's ``ServerObserver``, which may label metrics with it (never with the raw path,
    /// whose values are unbounded). Nil when no route answered.
    public var route: String?
    /// Fields the access log's line carries after its own, in order: what the application knows
    /// of the request (TablePages adds `actor`, who a write acted for).
    public var logFields: [LogField] = []
    /// The message of an error page for a browser that an ``ErrorPage`` has yet to render: set by
    /// ``error(_:_:json:)`` on its neutral page, cleared by ``ErrorPage/apply(to:)``.
    public var errorMessage: String?

    /// Creates a response from bytes.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Creates a Server-Sent Events response that stays open and carries what is written to `stream`.
    public init(stream: EventStream, headers: HTTPHeaders = [:]) {
        self.status = 200
        var headers = headers
        headers["Content-Type"] = "text/event-stream; charset=utf-8"
        headers["Cache-Control"] = headers["Cache-Control"] ?? "no-cache"
        // Reverse proxies such as nginx buffer responses unless told not to, which would hold events back.
        headers["X-Accel-Buffering"] = "no"
        self.headers = headers
        self.body = .stream(stream)
    }

    /// Creates a `200` response whose body is what is written to `body`, sent in chunked transfer
    /// encoding as it is written.
    public init(body: BodyStream, contentType: String, headers: HTTPHeaders = [:]) {
        self.status = 200
        var headers = headers
        headers["Content-Type"] = contentType
        headers["X-Accel-Buffering"] = "no"
        self.headers = headers
        self.body = .streamed(body)
    }

    /// Sends a prepared response: its header fields and body, with `status`.
    public init(status: Int = 200, prepared: PreparedResponse) {
        self.status = status
        self.headers = prepared.headers
        self.body = .prepared(prepared)
    }

    /// The body bytes, or an empty array for a stream.
    public var bodyBytes: [UInt8] {
        switch body {
        case .bytes(let bytes): bytes
        case .prepared(let prepared): prepared.body
        case .stream, .streamed: []
        }
    }

    /// An HTML response.
    public static func html(_ bytes: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: bytes)
    }

    /// An HTML response from a string.
    public static func html(_ text: String, status: Int = 200) -> Response {
        html(Array(text.utf8), status: status)
    }

    /// A JSON response from already-encoded bytes.
    public static func json(_ bytes: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: bytes)
    }

    /// A JSON response from already-encoded text.
    public static func json(_ text: String, status: Int = 200) -> Response {
        json(Array(text.utf8), status: status)
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A redirect, `303 See Other` by default: after a form POST the browser then GETs `location`.
    public static func redirect(to location: String, status: Int = 303) -> Response {
        Response(status: status, headers: ["Location": location])
    }

    /// An error in the form the client asked for: `{"error":{"status":…,"message":…}}` for JSON
    /// clients, a page for browsers: ``ErrorPage/plainText`` until the ``Router``'s
    /// ``Router/errorPage`` replaces it. The message is shown to the client: keep it free of
    /// internals.
    public static func error(_ status: Int, _ message: String, json: Bool) -> Response {
        if json {
            var body = #"{"error":{"status":"# + String(status) + #","message":""#
            body += JSONEscaping.escape(message) + "\"}}"
            return Response.json(body, status: status)
        }
        var response = ErrorPage.plainText.apply(to: Response(status: status, errorMessage: message))
        response.errorMessage = message
        // Nothing in an error page runs or loads; say so, as every page the service sends does.
        response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }

    private init(status: Int, errorMessage: String) {
        self.init(status: status)
        self.errorMessage = errorMessage
    }

    /// An error for `request`, in the form it prefers.
    public static func error(_ status: Int, _ message: String, for request: Request) -> Response {
        error(status, message, json: request.prefersJSON)
    }

    /// What a thrown `error` answers `request`, in the form it prefers: an ``HTTPErrorConvertible``
    /// its status, message and headers (`Retry-After`, `Allow`, …); anything else a 500 that names
    /// nothing of it. The one place a thrown error becomes a status: the ``Router`` and the server
    /// both answer with it.
    public static func error(_ error: any Error, for request: Request) -> Response {
        guard let convertible = error as? any HTTPErrorConvertible else {
            // Not the client's fault and not for the client's eyes: the server logs the status.
            return Self.error(500, "The server could not answer this request.", for: request)
        }
        let error = convertible.httpError
        var response = Self.error(error.status, error.message, for: request)
        for (name, value) in error.headers { response.headers[name] = value }
        return response
    }
}
