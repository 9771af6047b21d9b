import Synchronization

/// Bounds the queries of the SQL page in flight: one runs (a runner serializes them) and
/// ``waitingLimit`` more wait; beyond that a query is refused at once with ``QueryBusy`` (503), so
/// visitors' SQL cannot pile up threads or take the table pages' connections.
final class QueryGate: Sendable {
    /// Queries that may wait while one runs.
    static let waitingLimit = 8

    private let inFlight = Atomic<Int>(0)

    /// Runs `body` when fewer than ``waitingLimit`` + 1 queries are in flight.
    /// - Throws: ``QueryBusy`` when too many are; what `body` throws.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        guard inFlight.add(1, ordering: .relaxed).newValue <= Self.waitingLimit + 1 else {
            inFlight.subtract(1, ordering: .relaxed)
            throw QueryBusy()
        }
        defer { inFlight.subtract(1, ordering: .relaxed) }
        return try await body()
    }
}
