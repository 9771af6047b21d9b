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
/// - Line structure (RFC 9112 §2.2, §5.2): lines that end in a bare LF, a bare CR inside a line, a
///   field continued on a line that begins with a space or tab (obs-fold), and a NUL byte in a
///   field or the request target. libmicrohttpd 0.9.75 takes bare LF as a line end, joins a folded
///   line onto the field's *name*, and reads fields as C strings, so a NUL cuts a value short
///   (`Host: a.example\0.evil`). It parses the head in place in its read buffer, turning each line
///   end into NULs, and hands out pointers into it; the check walks those pointers and refuses any
///   head that is not exactly request line, CRLF, `name: value` CRLF …, CRLF. What libmicrohttpd
///   consumed without keeping (e.g. bytes before the request line) is not seen.
/// - `Transfer-Encoding` other than exactly `chunked` (RFC 9112 §6.1): libmicrohttpd reads no
///   other coding, and without a length it would wait for a body that never ends.
///
/// Checked when the head has arrived, before any body is read; the refusal closes the connection,
/// so nothing after the head is read as another request.
enum RequestHeadCheck {
    /// What the fields of one head say, gathered in one pass over libmicrohttpd's list.
    struct Tally {
        var hostCount = 0
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        var malformedName: String?
        /// The line structure broke somewhere; see ``LayoutWalk``.
        var malformedLine = false
        /// The field values have a control character other than tab.
        var controlInValue = false
        var walk = LayoutWalk(next: nil)
    }

    /// Follows the head's fields through libmicrohttpd's read buffer: each field should begin two
    /// bytes (a CRLF turned into NULs) after the previous line's end.
    struct LayoutWalk {
        /// Where the next line should begin, less its CRLF; nil when the layout cannot be followed.
        var next: UnsafePointer<UInt8>?
    }

    /// The refusal of the head libmicrohttpd holds for `connection`, or nil when it is unambiguous.
    /// `url` is the request target as libmicrohttpd handed it over, `targetLength` its length up to
    /// its first NUL as libmicrohttpd first saw it, `version` the request line's, e.g. `HTTP/1.1`.
    static func problem(on connection: OpaquePointer, url: UnsafePointer<CChar>, targetLength: Int?, version: UnsafePointer<CChar>?) -> HTTPError? {
        var tally = Tally()
        let versionLength = version.map { strlen($0) } ?? 0
        let inPlace = isParsedInPlace && versionLength > 0
        if inPlace, let version {
            tally.walk.next = UnsafeRawPointer(version).assumingMemoryBound(to: UInt8.self) + versionLength
        }
        withUnsafeMutablePointer(to: &tally) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, tallyField, pointer)
        }
        if inPlace, let version {
            // The target runs from `url` to the space before the version; a NUL in it ends the
            // C string early. The URI log callback measured it before anything else was cut.
            let targetEnd = UnsafeRawPointer(version) - 1
            if let targetLength, UnsafeRawPointer(url) + targetLength != targetEnd {
                return HTTPError(400, "The request target has a NUL byte.")
            }
            // The head ends with an empty line: the last line's CRLF and the empty line's own.
            if let end = tally.walk.next, !(end[0] == 0 && end[1] == 0 && end[2] == 0 && end[3] == 0) {
                tally.malformedLine = true
            } else if tally.walk.next == nil {
                tally.malformedLine = true
            }
        }
        var byte = UnsafeRawPointer(url).assumingMemoryBound(to: UInt8.self)
        while byte.pointee != 0 {
            if byte.pointee < 0x20 || byte.pointee == 0x7f {
                return HTTPError(400, "The request target has a control character.")
            }
            byte += 1
        }
        let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        return problem(with: tally, isHTTP11: isHTTP11)
    }

    /// Whether this libmicrohttpd parses heads in place, as 0.9.x does: the line structure can
    /// then be read back from where its fields lie.
    static let isParsedInPlace: Bool = {
        guard let version = MHD_get_version() else { return false }
        return String(cString: version).hasPrefix("0.9.")
    }()

    /// The refusal of a head whose fields are summed up by `tally`.
    static func problem(with tally: Tally, isHTTP11: Bool) -> HTTPError? {
        if tally.malformedLine {
            return HTTPError(400, "The request head is malformed: every line must end in CRLF, no field may be continued on a line that begins with a space or tab, and no field may hold a NUL byte.")
        }
        if tally.controlInValue {
            return HTTPError(400, "A header field value has a control character (a bare CR, or another byte below 0x20 than tab).")
        }
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
        if !tally.transferEncodings.isEmpty, !tally.contentLengths.isEmpty {
            return HTTPError(400, "The request has both Content-Length and Transfer-Encoding; send one.")
        }
        if !tally.transferEncodings.isEmpty, tally.transferEncodings != ["chunked"] {
            return HTTPError(400, "The request's Transfer-Encoding must be exactly \u{201C}chunked\u{201D}, once; this server reads no other coding.")
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

private func tallyField(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let tally = cls.assumingMemoryBound(to: RequestHeadCheck.Tally.self)
    let keyBytes = UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self)
    let valueBytes = value.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
    var walk = tally.pointee.walk
    var malformedLine = tally.pointee.malformedLine
    walk.follow(key: keyBytes, keySize: keySize, value: valueBytes, valueSize: valueSize, malformed: &malformedLine)
    tally.pointee.walk = walk
    tally.pointee.malformedLine = malformedLine
    if let valueBytes {
        for index in 0..<valueSize where valueBytes[index] < 0x20 && valueBytes[index] != 0x09 || valueBytes[index] == 0x7f {
            tally.pointee.controlInValue = true
        }
    }
    // Compared as C strings: most fields are none of these, and need no Swift string at all.
    if strcasecmp(key, "Host") == 0 {
        tally.pointee.hostCount += 1
    } else if strcasecmp(key, "Content-Length") == 0 {
        tally.pointee.contentLengths.append(value.map { String(cString: $0) } ?? "")
    } else if strcasecmp(key, "Transfer-Encoding") == 0 {
        let coding = value.map { String(cString: $0) } ?? ""
        tally.pointee.transferEncodings.append(Substring(coding).trimmingWhitespace().lowercased())
    } else if tally.pointee.malformedName == nil {
        var byte = keyBytes
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

extension RequestHeadCheck.LayoutWalk {
    /// Takes the next field: it must begin right after the previous line's CRLF, its name end at
    /// the NUL that was its colon, and its value follow after optional spaces and tabs.
    mutating func follow(key: UnsafePointer<UInt8>, keySize: Int, value: UnsafePointer<UInt8>?, valueSize: Int, malformed: inout Bool) {
        guard let expected = next else { return }
        next = nil
        guard key == expected + 2, expected[0] == 0, expected[1] == 0, key[keySize] == 0, let value else {
            malformed = true
            return
        }
        var gap = key + keySize + 1
        guard value >= gap else {
            malformed = true
            return
        }
        while gap < value {
            guard gap.pointee == UInt8(ascii: " ") || gap.pointee == UInt8(ascii: "\t") else {
                malformed = true
                return
            }
            gap += 1
        }
        next = value + valueSize
    }
}
