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

    /// The method libmicrohttpd parsed, without building a new string for the common ones.
    init(cString token: UnsafePointer<CChar>) {
        // Compared byte by byte, never reading past the terminating NUL.
        func matches(_ name: StaticString) -> Bool {
            let bytes = UnsafeRawPointer(token).assumingMemoryBound(to: UInt8.self)
            var index = 0
            while index < name.utf8CodeUnitCount {
                guard bytes[index] == name.utf8Start[index] else { return false }
                index += 1
            }
            return bytes[index] == 0
        }
        if matches("GET") {
            self = .get
        } else if matches("POST") {
            self = .post
        } else if matches("HEAD") {
            self = .head
        } else {
            self.init(rawValue: String(cString: token))
        }
    }
}
