import Logging
import MicroHTTP
import TableKit

/// What every page route goes through before its handler, resolved once per request: the page,
/// the actor and the variant (``PageRequests``), then the variant's host. The routes that change
/// data are grouped behind ``writing(_:_:)``, which checks before anything runs that the request
/// may write (cross-site check, CSRF token, the site's and the page's rules: 401 or 403) and that
/// its body is a form or JSON (415 otherwise), and logs one line per write attempt with the actor,
/// page, row, action and the status it got; the response carries the actor for the access log.
struct PageMiddleware: Sendable {
    let pages: PageRequests
    let logger: Logger

    /// A handler of a page route, given what the request names.
    typealias Handler = @Sendable (Request, PageContext) async throws -> Response
    /// A handler of a write, given also the body as read.
    typealias WriteHandler = @Sendable (Request, PageContext, ActionInput) async throws -> Response

    /// `handler`, run with the page the request may read.
    func reading(_ handler: @escaping Handler) -> Router.AsyncHandler {
        { request in try await handler(request, try await pages.context(of: request, for: .reading)) }
    }

    /// `handler` for a row's own URL, run with the page's variant of that one row when it has
    /// such variants (``PageDefinition/rowVariantParameter``), so that the row's page is read from
    /// the variant whose stream it follows; else as ``reading(_:)``.
    func readingRow(_ handler: @escaping Handler) -> Router.AsyncHandler {
        { request in
            let definition = try pages.definition(of: request)
            var request = request
            if let parameter = definition.rowVariantParameter, let row = request.parameters[PageContract.Parameter.row] {
                request.queryItems.removeAll { $0.name == parameter }
                request.queryItems.append((name: parameter, value: row))
            }
            return try await handler(request, try await pages.host(for: try pages.resolve(request, for: .reading, definition: definition)))
        }
    }

    /// `handler`, run only for a request allowed to write, whose body is read; `action` names it in
    /// the log (nil: the route's `action` parameter).
    func writing(_ action: String?, _ handler: @escaping WriteHandler) -> Router.AsyncHandler {
        { request in
            // An unknown page is no write attempt: no log line.
            let definition = try pages.definition(of: request)
            let actionName = action ?? request.parameters[PageContract.Parameter.action] ?? "action"
            var actor: Actor?
            do {
                let page = try pages.resolve(request, for: .writing, definition: definition)
                actor = page.actor
                let input = try ActionInput.parse(request)
                var response = try await handler(request, try await pages.host(for: page), input)
                response.logFields += Self.actorField(actor)
                log(request, actor: actor, action: actionName, status: response.status)
                return response
            } catch let error as any HTTPErrorConvertible {
                // A 403's actor is known though the write was refused: the log names who tried.
                let known = actor ?? pages.access.actor(for: request)
                log(request, actor: known, action: actionName, status: error.httpError.status)
                var response = Response.error(error, for: request)
                response.logFields += Self.actorField(known)
                return response
            } catch {
                // The router answers 500 and the handler has logged why; this line records the attempt.
                log(request, actor: actor, action: actionName, status: 500)
                throw error
            }
        }
    }

    /// The access log's `actor` field; none for an anonymous request.
    private static func actorField(_ actor: Actor?) -> [LogField] {
        actor.map { [LogField(name: "actor", value: $0.id)] } ?? []
    }

    private func log(_ request: Request, actor: Actor?, action: String, status: Int) {
        var metadata: Logger.Metadata = [
            "actor": .string(actor?.id ?? "anonymous"),
            "page": .string(request.parameters[PageContract.Parameter.page] ?? ""),
            "action": .string(action),
            "status": .stringConvertible(status),
        ]
        if let row = request.parameters[PageContract.Parameter.row] {
            metadata["row"] = .string(row)
        } else if let section = request.parameters[PageContract.Parameter.section] {
            metadata["section"] = .string(section)
        }
        logger.info("write", metadata: metadata)
    }
}
