import MicroHTTP
import TableKit

/// Checks that a signed-in browser's write carries its session's CSRF token (see
/// ``SessionSecret/csrfToken(forSession:)``), in `X-CSRF-Token` or in a form's `_csrf` field.
///
/// A page's HTML is shared by every viewer and cached, so the token is never part of the
/// rendered tables: the page's head carries it in `<meta name="csrf-token">` and
/// `table-pages.js` sends it as `X-CSRF-Token` with every write.
enum CSRFCheck {
    /// Throws 403 unless `request` carries `expected`, the session's token.
    static func check(_ request: Request, expected: String) throws(HTTPError) {
        let token = request.headers[PageContract.csrfHeader] ?? formField(PageContract.Field.csrf, in: request)
        guard let token, !token.isEmpty else {
            throw HTTPError(403, "This write needs the page's CSRF token (header \(PageContract.csrfHeader) or form field \(PageContract.Field.csrf)), "
                + "which the page's script sends: reload the page with JavaScript on, or write from a script with an access token. Nothing changed.")
        }
        guard constantTimeEquals(token, expected) else {
            throw HTTPError(403, "The CSRF token does not belong to this session; reload the page. Nothing changed.")
        }
    }

    /// Whether `given` equals `expected`, in a time that depends only on their lengths, so the
    /// answer's timing tells nothing about how much of a guess was right.
    static func constantTimeEquals(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8), expected = Array(expected.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }

    /// The value of field `name` in a form body, without decoding the other fields.
    static func formField(_ name: String, in request: Request) -> String? {
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else { return nil }
        let prefix = Array((name + "=").utf8)
        for pair in request.body.split(separator: UInt8(ascii: "&")) where pair.starts(with: prefix) {
            return PercentEncoding.decode(String(decoding: pair.dropFirst(prefix.count), as: UTF8.self), plusAsSpace: true)
        }
        return nil
    }
}
