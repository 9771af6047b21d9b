import CMicroHTTPD

/// libmicrohttpd's connection pointer, carried to the thread that resumes the connection.
///
/// `@unchecked Sendable` because it is a thin wrapper of a C pointer: libmicrohttpd documents
/// `MHD_resume_connection` as callable from any thread, and Swift never dereferences the pointer.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Lets libmicrohttpd process the connection again after a suspend.
    func resume() { MHD_resume_connection(pointer) }

    /// Stops libmicrohttpd from processing the connection until ``resume()``; call only from a
    /// libmicrohttpd callback for this connection.
    func suspend() { MHD_suspend_connection(pointer) }
}
