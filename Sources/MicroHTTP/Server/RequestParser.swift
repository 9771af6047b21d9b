import CMicroHTTPD

/// Turns libmicrohttpd's view of a received request into a ``Request``.
enum RequestParser {
    static func parse(connection: OpaquePointer, method: HTTPMethod, path: String, body: [UInt8]) -> Result<Request, HTTPError> {
        guard let segments = pathSegments(of: path) else {
            return .failure(HTTPError(400, "The path has a malformed percent-escape."))
        }
        var queryItems: [(name: String, value: String)] = []
        if MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil) > 0 {
            for (name, value) in values(of: .GET_ARGUMENT_KIND, on: connection) {
                guard let name = PercentEncoding.decode(name, plusAsSpace: true),
                      let value = PercentEncoding.decode(value, plusAsSpace: true) else {
                    return .failure(HTTPError(400, "The query string has a malformed percent-escape."))
                }
                queryItems.append((name: name, value: value))
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
        // Kept raw: formatting it as text costs more than most requests are worth, and few ask.
        let peer = tp_connection_client_address(connection).flatMap { PeerAddress($0) }
        return .success(Request(
            method: method, path: path, pathSegments: segments, queryItems: queryItems,
            headers: headers, cookies: cookies, body: body, peer: peer
        ))
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
        var start = 0
        var escaped = false
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
            if byte == UInt8(ascii: "%") { escaped = true }
            guard byte == UInt8(ascii: "/") else { continue }
            if index > start {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let segment: String
                if escaped {
                    guard let decoded = PercentEncoding.decode(String(decoding: raw, as: UTF8.self)) else { return nil }
                    segment = decoded
                } else {
                    segment = String(decoding: raw, as: UTF8.self)
                }
                guard !segment.utf8.contains(0) else { return nil }
                segments.append(segment)
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
