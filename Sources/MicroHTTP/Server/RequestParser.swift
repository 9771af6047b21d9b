import CMicroHTTPD

/// Turns libmicrohttpd's view of a received request into a ``Request``.
enum RequestParser {
    /// Bytes of the connection's memory pool kept free for the response head (status line, `Date`,
    /// `Content-Length` and the response's own fields); see ``estimatedPoolUse(path:queryItems:headers:cookies:)``.
    static let responseHeadReserve = 1024

    /// Parses the request; `connectionMemoryLimit` is the daemon's per-connection pool size, which
    /// must still have room for the response head after holding the request's.
    static func parse(connection: OpaquePointer, method: HTTPMethod, path: String, body: [UInt8], connectionMemoryLimit: Int, trustedProxies: [AddressRange] = []) -> Result<Request, HTTPError> {
        guard let segments = pathSegments(of: path) else {
            return .failure(HTTPError(400, "The path has a malformed percent-escape."))
        }
        var queryItems: [(name: String, value: String)] = []
        var malformed = false
        if MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil) > 0 {
            for (name, value) in values(of: .GET_ARGUMENT_KIND, on: connection) {
                // Refused by the router unless the route reads such a query as Datasette does.
                let decodedName = PercentEncoding.decode(name, plusAsSpace: true) ?? { malformed = true; return PercentEncoding.decodeLeniently(name, plusAsSpace: true) }()
                let decodedValue = PercentEncoding.decode(value, plusAsSpace: true) ?? { malformed = true; return PercentEncoding.decodeLeniently(value, plusAsSpace: true) }()
                queryItems.append((name: decodedName, value: decodedValue))
            }
        }
        var headers = HTTPHeaders()
        let headerCount = MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)
        if headerCount > 0 {
            headers.reserveCapacity(Int(headerCount))
            withUnsafeMutablePointer(to: &headers) { pointer in
                _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, pointer)
            }
        }
        var cookies: [String: String] = [:]
        if MHD_get_connection_values(connection, .COOKIE_KIND, nil, nil) > 0 {
            for (name, value) in values(of: .COOKIE_KIND, on: connection) { cookies[name] = value }
        }
        // libmicrohttpd reads the head into the connection's memory pool and builds the response head
        // there too. A head that fits, but leaves too little room for that, would have the
        // connection closed without any answer: refuse it here with a small 431 instead.
        if estimatedPoolUse(path: path, queryItems: queryItems, headers: headers, cookies: cookies) + responseHeadReserve > connectionMemoryLimit {
            return .failure(HTTPError(431, "The request's header fields are too large."))
        }
        // Kept raw: formatting it as text costs more than most requests are worth, and few ask.
        let peer = tp_connection_client_address(connection).flatMap { PeerAddress($0) }
        var request = Request(
            method: method, path: path, pathSegments: segments, queryItems: queryItems,
            headers: headers, cookies: cookies, body: body,
            client: ForwardedClient.resolve(peer: peer, headers: headers, trusted: trustedProxies)
        )
        request.queryHasMalformedEscape = malformed
        return .success(request)
    }

    /// Roughly what libmicrohttpd 0.9.75 holds in the pool for a request head: the request line and
    /// fields as received, a record of about 64 bytes per field, query argument and cookie, and a
    /// copy of the `Cookie` field, which it parses from a copy.
    static func estimatedPoolUse(path: String, queryItems: [(name: String, value: String)], headers: HTTPHeaders, cookies: [String: String]) -> Int {
        let record = 64
        var bytes = 64 + path.utf8.count  // request line
        for (name, value) in queryItems { bytes += name.utf8.count + value.utf8.count + 2 + record }
        for (name, value) in headers { bytes += name.utf8.count + value.utf8.count + 4 + record }
        if !cookies.isEmpty {
            bytes += (headers["Cookie"]?.utf8.count ?? 0) + cookies.count * record
        }
        return bytes
    }

    /// The path's non-empty segments, each percent-decoded; nil when an escape is malformed, the
    /// result is not UTF-8, or it holds a NUL byte. Works on the UTF-8 bytes: `/` is ASCII, so it
    /// never occurs inside a multi-byte character.
    static func pathSegments(of path: String) -> [String]? {
        if let segments = path.utf8.withContiguousStorageIfAvailable({ pathSegments(ofBytes: $0) }) {
            return segments
        }
        return Array(path.utf8).withUnsafeBufferPointer { pathSegments(ofBytes: $0) }
    }

    private static func pathSegments(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var segments: [String] = []
        segments.reserveCapacity(4)
        var start = 0
        var escaped = false
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
            if byte == UInt8(ascii: "%") { escaped = true }
            guard byte == UInt8(ascii: "/") else { continue }
            if index > start {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                if escaped {
                    // Only an escape can produce a NUL: the path itself came from a C string.
                    guard let decoded = PercentEncoding.decode(String(decoding: raw, as: UTF8.self)),
                          !decoded.utf8.contains(0) else { return nil }
                    segments.append(decoded)
                } else {
                    segments.append(String(decoding: raw, as: UTF8.self))
                }
            }
            start = index + 1
            escaped = false
        }
        return segments
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

private func collectHeader(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
    headers.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}
