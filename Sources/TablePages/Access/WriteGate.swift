import Logging
import MicroHTTP
import TableKit

/// Wraps every route that changes data: first ``AccessControl/authorizeWrite(_:page:)`` (401 or
/// 403 before anything runs), then the handler; and one log line per write attempt with the actor,
/// page, row, action and the status it got. The response carries the actor for the access log.
struct WriteGate: Sendable {
    let access: AccessControl
    let registry: PageRegistry
    let logger: Logger

    /// `handler`, run only for a request allowed to write; `action` names it in the log (nil: the
    /// route's `action` parameter).
    func guarding(_ action: String?, _ handler: @escaping Router.AsyncHandler) -> Router.AsyncHandler {
        { request in
            let name = request.parameters[PageContract.Parameter.page] ?? ""
            guard let page = registry.page(inPath: name) else {
                throw HTTPError(404, "There is no page \u{201C}\(name)\u{201D}.")
            }
            let actionName = action ?? request.parameters[PageContract.Parameter.action] ?? "action"
            var actor: Actor?
            do {
                actor = try access.authorizeWrite(request, page: page)
                var response = try await handler(request)
                response.actor = actor?.id
                log(request, actor: actor, action: actionName, status: response.status)
                return response
            } catch let error as HTTPError {
                // A 403's actor is known though authorizeWrite refused it: the log names who tried.
                let known = actor ?? access.actor(for: request)
                log(request, actor: known, action: actionName, status: error.status)
                var response = Response.error(error, for: request)
                response.actor = known?.id
                return response
            } catch {
                // The router answers 500 and the handler has logged why; this line records the attempt.
                log(request, actor: actor, action: actionName, status: 500)
                throw error
            }
        }
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
