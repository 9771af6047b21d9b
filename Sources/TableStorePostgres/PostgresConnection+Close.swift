import Logging
import PostgresNIO

extension PostgresConnection {
    /// Closes the connection without waiting, for a thread that may not wait on async work: a
    /// connection that failed (or left a statement unanswered) must not go back to the pool's
    /// idle connections, and closing it makes the pool open another.
    public func closeInBackground(logger: Logger) {
        Task {
            do {
                try await close()
            } catch {
                logger.debug("closing a failed PostgreSQL connection: \(String(reflecting: error))")
            }
        }
    }
}
