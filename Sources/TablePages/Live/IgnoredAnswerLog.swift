import Logging
import Synchronization
import TableKit

/// Logs each delegate answer a page's table could not honour (``/TableKit/IgnoredDelegateAnswer``)
/// as a warning, once per page and case for the life of the process: the developer learns that
/// `show(_:)` from a row action led nowhere without a line per request.
final class IgnoredAnswerLog: Sendable {
    /// The log every page of the process shares, so that a page's variants and renders warn once.
    static let shared = IgnoredAnswerLog()

    // "page\u{0}category" of every warning logged so far.
    private let logged = Mutex<Set<String>>([])

    /// Logs `answer` of `page` unless one of its case was logged before.
    func warnOnce(_ answer: IgnoredDelegateAnswer, page: String, logger: Logger) {
        let first = logged.withLock { $0.insert(page + "\u{0}" + answer.category).inserted }
        guard first else { return }
        logger.warning("page \(page): \(answer.message) (logged once)")
    }

    /// `table`, reporting what it ignores to this log under `page`.
    func watching(_ table: TableAdapter, page: String, logger: Logger) -> TableAdapter {
        table.onIgnoredAnswer = { [self] answer in warnOnce(answer, page: page, logger: logger) }
        return table
    }
}
