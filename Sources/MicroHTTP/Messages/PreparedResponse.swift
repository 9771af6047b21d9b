import CMicroHTTPD

/// A complete response (header fields and body) built once in libmicrohttpd's own form, for bytes
/// that are sent again and again, such as a cached static file.
///
/// libmicrohttpd reference-counts its responses and allows one response to be queued on any number
/// of connections, from any thread; so queueing a prepared response copies neither body nor header
/// fields, where a ``Response`` with `.bytes` is copied into a new libmicrohttpd response per request.
///
///     let prepared = PreparedResponse(headers: ["Content-Type": "text/css"], body: bytes)
///     return Response(prepared: prepared)
public final class PreparedResponse: Sendable {
    /// The header fields built into the response.
    public let headers: HTTPHeaders
    /// The body built into the response.
    public let body: [UInt8]
    /// libmicrohttpd's response; nil when it could not be made (out of memory, or a header field
    /// libmicrohttpd refuses), in which case the server builds one per request as for `.bytes`.
    let handle: MHDResponseHandle?

    /// Builds the response once; `headers` and `body` are copied into it.
    public init(headers: HTTPHeaders, body: [UInt8]) {
        self.headers = headers
        self.body = body
        let pointer = body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let pointer else {
            handle = nil
            return
        }
        var complete = true
        for (name, value) in headers where MHD_add_response_header(pointer, name, value) != .YES {
            complete = false
        }
        if complete {
            handle = MHDResponseHandle(pointer: pointer)
        } else {
            // Built per request instead, which adds the fields it can, as for any other response.
            MHD_destroy_response(pointer)
            handle = nil
        }
    }

    deinit {
        // Drops our reference only: connections still sending it hold their own.
        if let handle { MHD_destroy_response(handle.pointer) }
    }
}

/// libmicrohttpd's response pointer.
///
/// `@unchecked Sendable` because it is a thin wrapper of a C pointer to a response that is never
/// changed after it is built: libmicrohttpd guards its reference count with the response's own
/// mutex and documents queueing one response on many connections from any thread.
struct MHDResponseHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
