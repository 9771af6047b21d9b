/// A response as a test sees it.
public struct TestResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields in order.
    public var headers: [(String, String)]
    /// The body bytes.
    public var body: [UInt8]

    /// The first value of a header, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
