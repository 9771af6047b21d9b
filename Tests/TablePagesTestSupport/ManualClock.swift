import Foundation
import Synchronization

/// A wall clock that moves only when a test moves it: sessions expire and sign-in limits refill
/// at the instant the test says, never at the whim of a slow machine.
final class ManualClock: Sendable {
    private let instant: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        instant = Mutex(start)
    }

    /// The clock's time now.
    func now() -> Date { instant.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    func advance(by seconds: TimeInterval) {
        instant.withLock { $0 += seconds }
    }
}
