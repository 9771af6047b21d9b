#if canImport(Glibc)
import Glibc
#endif

/// Answers a request whose body is still arriving, then lets libmicrohttpd close the connection.
///
/// libmicrohttpd 0.9.75 accepts a queued response only before the body or after all of it
/// (`MHD_queue_response` refuses one while the connection is receiving the body), so a body that
/// turns out too large, or too late, halfway would otherwise be read to its end before the answer.
/// Instead the answer is written to the socket directly — libmicrohttpd writes nothing while it
/// receives a body — and the access handler returns `MHD_NO`, on which libmicrohttpd closes.
enum ImmediateRefusal {
    /// Writes `response` with `Connection: close` and ends the sending side, so the client reads the
    /// answer before it sees the connection end. Call only on the connection's event thread, from
    /// the access handler while the body is arriving. Never blocks: what the socket cannot take at
    /// once is dropped (a few hundred bytes always fit an empty send buffer).
    static func send(_ response: Response, on descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var head = "HTTP/1.1 \(response.status) \(HTTPStatus.reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        let body: [UInt8]
        switch response.body {
        case .bytes(let bytes): body = bytes
        case .prepared(let prepared): body = prepared.body
        case .stream, .streamed: body = []
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }
}
