import Foundation
import MicroHTTP
import TableKit

/// The fields an action request carries, from a JSON object body or an HTML form body.
///
/// Browsers without JavaScript post forms (`application/x-www-form-urlencoded`); scripts and the
/// client send JSON. Both end up as the same string fields.
struct ActionInput {
    /// The fields by name; JSON numbers and booleans become their text.
    let fields: [String: String]
    /// Whether the body was a form, so the answer is a redirect back to the page.
    let isForm: Bool

    /// The fields meant for the delegate: all but the form's own controls (`_method`, `_csrf`).
    var values: [String: String] {
        fields.filter { $0.key != PageContract.Field.method && $0.key != PageContract.Field.csrf }
    }

    /// Parses `request`'s body; an empty body gives no fields.
    ///
    /// A body is read only as what its `Content-Type` says: a form, or JSON as
    /// `application/json`. Anything else is refused with 415, since `text/plain` (or no type)
    /// is what another site's page can send without the browser asking this server first.
    static func parse(_ request: Request) throws(HTTPError) -> ActionInput {
        let contentType = (request.headers["Content-Type"] ?? "").lowercased()
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if mediaType == "application/x-www-form-urlencoded" {
            // `curl -d '{…}'` labels JSON as a form, as a cross-site form can: say what to send instead.
            if request.body.first(where: { $0 != 0x20 && $0 != 0x0a && $0 != 0x0d && $0 != 0x09 }) == UInt8(ascii: "{") {
                throw HTTPError(415, "The body looks like JSON but is labelled as a form; send it with Content-Type: application/json.")
            }
            return ActionInput(fields: try formFields(request.body), isForm: true)
        }
        guard !request.body.isEmpty else { return ActionInput(fields: [:], isForm: false) }
        guard mediaType == "application/json" else {
            let given = mediaType.isEmpty ? "no Content-Type" : "Content-Type \(mediaType.prefix(100))"
            throw HTTPError(415, "The body was sent with \(given); send JSON as application/json, or an HTML form as application/x-www-form-urlencoded. Nothing changed.")
        }
        return ActionInput(fields: try jsonFields(request.body), isForm: false)
    }

    /// A required, non-empty field.
    func require(_ name: String) throws(HTTPError) -> String {
        guard let value = fields[name], !value.isEmpty else {
            throw HTTPError(400, "The body needs a non-empty \"\(name)\" field.")
        }
        return value
    }

    private static func formFields(_ body: [UInt8]) throws(HTTPError) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(parts[0], plusAsSpace: true),
                  let value = PercentEncoding.decode(parts.count > 1 ? parts[1] : "", plusAsSpace: true) else {
                throw HTTPError(400, "The form body has a malformed percent-escape.")
            }
            fields[name] = value
        }
        return fields
    }

    private static func jsonFields(_ body: [UInt8]) throws(HTTPError) -> [String: String] {
        let object: [String: JSONScalar]
        do {
            object = try JSONDecoder().decode([String: JSONScalar].self, from: Data(body))
        } catch DecodingError.typeMismatch(_, let context) {
            guard let field = context.codingPath.first else { throw HTTPError(400, "The body must be a JSON object.") }
            throw HTTPError(400, "Field \"\(field.stringValue)\" must be a string, number or boolean.")
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw HTTPError(400, "The body is not valid JSON.")
        } catch {
            throw HTTPError(400, "The body must be a JSON object of strings, numbers and booleans.")
        }
        return object.compactMapValues(\.text)
    }
}

/// A JSON value an action field may hold; objects and arrays are refused.
private enum JSONScalar: Decodable {
    case text(String)
    case null

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .text(flag ? "true" : "false")
        } else if let integer = try? container.decode(Int.self) {
            self = .text(String(integer))
        } else if let number = try? container.decode(Double.self) {
            self = .text(String(number))
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}
