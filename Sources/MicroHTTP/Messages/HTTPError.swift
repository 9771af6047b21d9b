/// An error a handler throws to answer with a given status and a message for the client.
///
///     guard let limit = Int(text) else { throw HTTPError(400, "limit must be a number") }
public struct HTTPError: Error, Sendable, Equatable {
    /// The status code, e.g. 400.
    public var status: Int
    /// A message for the client: what was wrong with its request.
    public var message: String
    /// Extra header fields, e.g. `Allow` for a 405.
    public var headers: [String: String]

    /// Creates an error with a status and a client-facing message.
    public init(_ status: Int, _ message: String, headers: [String: String] = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }
}

extension HTTPError: HTTPErrorConvertible {
    /// The error itself.
    public var httpError: HTTPError { self }
}
