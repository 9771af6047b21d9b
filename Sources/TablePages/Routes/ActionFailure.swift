import MicroHTTP
import TableKit

/// An action whose delegate threw (a store write that failed), and what the client is told:
/// 503 with `Retry-After` when the database was busy with another writer, 500 otherwise. Either
/// way the change was not made, and the message says so without the SQL, its arguments or paths,
/// which stay in the server's log.
///
///     throw ActionFailure(page: "todo", action: "select", row: "todo-3").httpError(for: error)
struct ActionFailure: Sendable {
    /// The seconds a client is asked to wait before retrying an action the database was too busy for.
    static let busyRetryAfter = 1

    /// The page the action was asked of.
    let page: String
    /// The action: select, delete, move, insert, or the name of a row action.
    let action: String
    /// What the action was done to, as the client named it: `row “todo-3”`, `section “todos”`.
    let subject: String

    /// An action on a row.
    init(page: String, action: String, row: RowID) {
        self.init(page: page, action: action, subject: "row \u{201C}\(row)\u{201D}")
    }

    /// An action on a section, e.g. inserting a row into it.
    init(page: String, action: String, section: SectionID) {
        self.init(page: page, action: action, subject: "section \u{201C}\(section)\u{201D}")
    }

    private init(page: String, action: String, subject: String) {
        self.page = page
        self.action = action
        self.subject = subject
    }

    /// A line for the server's log, with the whole error.
    func logMessage(for error: any Error) -> String {
        "page \(page): \(action) \(subject) failed: \(error)"
    }

    /// The response to an action that failed with `error`.
    func httpError(for error: any Error) -> HTTPError {
        let failed = "Could not \(action) \(subject)"
        guard let error = error as? any DatabaseWriteError else {
            return HTTPError(500, "\(failed): the page could not make the change. Nothing was changed.")
        }
        if error.isBusyWithAnotherWriter {
            return HTTPError(
                503,
                "\(failed): the database is busy with another write. Nothing was changed; try again shortly.",
                headers: ["Retry-After": String(Self.busyRetryAfter)]
            )
        }
        return HTTPError(500, "\(failed): the database refused the change (\(error.summaryForClients)). Nothing was changed.")
    }
}
