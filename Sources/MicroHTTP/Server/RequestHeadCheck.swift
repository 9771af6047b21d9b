import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// Refuses, with 400, request heads that a proxy in front and this server could read as different
/// requests, or that name their host ambiguously; libmicrohttpd 0.9.75 accepts them all.
///
/// - Framing (RFC 9112 §6.3): two `Content-Length` fields that differ (libmicrohttpd reads the
///   first, a proxy may read the last), or `Content-Length` together with `Transfer-Encoding`
///   (libmicrohttpd lets the latter win; a proxy may not). Either is how requests are smuggled
///   past a proxy's view of where one request ends.
/// - Host (RFC 9112 §3.2): an HTTP/1.1 request without `Host` or with more than one. HTTP/1.0
///   requests may leave it out.
/// - Field names (RFC 9112 §5.1): a name with whitespace or another byte that is not a token
///   character, e.g. `Host : evil.example`, which libmicrohttpd keeps as a field named `Host `,
///   so the `Host` check would never see it.
///
/// Checked when the head has arrived, before any body is read; the refusal closes the connection,
/// so nothing after the head is read as another request.
enum RequestHeadCheck {
    /// What the fields of one head say, gathered in one pass over libmicrohttpd's list.
    struct Tally {
        var hostCount = 0
        var contentLengths: [String] = []
        var hasTransferEncoding = false
        var malformedName: String?
    }

    /// The refusal of the head libmicrohttpd holds for `connection`, or nil when it is unambiguous.
    /// `version` is the request line's, e.g. `HTTP/1.1`.
    static func problem(on connection: OpaquePointer, version: UnsafePointer<CChar>?) -> HTTPError? {
        var tally = Tally()
        withUnsafeMutablePointer(to: &tally) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, tallyField, pointer)
        }
        let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        return problem(with: tally, isHTTP11: isHTTP11)
    }

    /// The refusal of a head whose fields are summed up by `tally`.
    static func problem(with tally: Tally, isHTTP11: Bool) -> HTTPError? {
        if let name = tally.malformedName {
            let shown = name.unicodeScalars.count > 40 ? String(name.unicodeScalars.prefix(40)) + "\u{2026}" : name
            return HTTPError(400, "The header field name \u{201C}\(shown)\u{201D} is malformed: a name is letters, digits and !#$%&'*+-.^_`|~, with no space before its colon.")
        }
        if isHTTP11, tally.hostCount != 1 {
            return HTTPError(400, tally.hostCount == 0 ? "An HTTP/1.1 request needs a Host field." : "The request has more than one Host field.")
        }
        if tally.hostCount > 1 {
            return HTTPError(400, "The request has more than one Host field.")
        }
        if tally.hasTransferEncoding, !tally.contentLengths.isEmpty {
            return HTTPError(400, "The request has both Content-Length and Transfer-Encoding; send one.")
        }
        if let first = tally.contentLengths.first, tally.contentLengths.contains(where: { $0 != first }) {
            return HTTPError(400, "The request has Content-Length fields that differ.")
        }
        return nil
    }

    /// Whether `byte` may be part of a field name: an RFC 9110 token character.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

private func tallyField(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let tally = cls.assumingMemoryBound(to: RequestHeadCheck.Tally.self)
    // Compared as C strings: most fields are none of these, and need no Swift string at all.
    if strcasecmp(key, "Host") == 0 {
        tally.pointee.hostCount += 1
    } else if strcasecmp(key, "Content-Length") == 0 {
        tally.pointee.contentLengths.append(value.map { String(cString: $0) } ?? "")
    } else if strcasecmp(key, "Transfer-Encoding") == 0 {
        tally.pointee.hasTransferEncoding = true
    } else if tally.pointee.malformedName == nil {
        var byte = UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self)
        if byte.pointee == 0 { tally.pointee.malformedName = "" }
        while byte.pointee != 0 {
            if !RequestHeadCheck.isTokenByte(byte.pointee) {
                tally.pointee.malformedName = String(cString: key)
                break
            }
            byte += 1
        }
    }
    return .YES
}
