import CMicroHTTPD

/// Turns libmicrohttpd's view of a received request into a ``Request``.
enum RequestParser {
    static func parse(connection: OpaquePointer, method: HTTPMethod, path: String, body: [UInt8]) -> Result<Request, HTTPError> {
        var segments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = PercentEncoding.decode(raw), !segment.utf8.contains(0) else {
                return .failure(HTTPError(400, "The path has a malformed percent-escape."))
            }
            segments.append(segment)
        }
        var queryItems: [(name: String, value: String)] = []
        for (name, value) in values(of: .GET_ARGUMENT_KIND, on: connection) {
            guard let name = PercentEncoding.decode(name, plusAsSpace: true),
                  let value = PercentEncoding.decode(value, plusAsSpace: true) else {
                return .failure(HTTPError(400, "The query string has a malformed percent-escape."))
            }
            queryItems.append((name: name, value: value))
        }
        var headers = HTTPHeaders()
        for (name, value) in values(of: .HEADER_KIND, on: connection) { headers.add(name, value) }
        var cookies: [String: String] = [:]
        for (name, value) in values(of: .COOKIE_KIND, on: connection) { cookies[name] = value }
        let peer = tp_connection_client_address(connection).flatMap { SocketAddress.text(of: $0) }
        return .success(Request(
            method: method, path: path, pathSegments: segments, queryItems: queryItems,
            headers: headers, cookies: cookies, body: body, remoteAddress: peer
        ))
    }

    private static func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(String, String)] {
        var pairs: [(String, String)] = []
        withUnsafeMutablePointer(to: &pairs) { pointer in
            _ = MHD_get_connection_values(connection, kind, collectValue, pointer)
        }
        return pairs
    }
}

private func collectValue(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let pairs = cls.assumingMemoryBound(to: [(String, String)].self)
    pairs.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}
