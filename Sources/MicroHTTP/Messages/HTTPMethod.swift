/// An HTTP request method, such as `GET` or `POST`.
///
///     router.on(.post, "/pages/:page/rows/:row/select") { request in … }
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's token as sent on the wire, in upper case.
    public let rawValue: String

    /// Creates a method from its wire token; tokens are case-sensitive in HTTP, so this keeps it as given.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: a `GET` without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: act on a resource.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask which methods a resource allows.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The wire token.
    public var description: String { rawValue }
}
