import GRDB
import Synchronization

/// Read-only connections of a ``Store``'s own, one lent per read, for its reads without a snapshot
/// (`Store.readWithoutSnapshot(_:)`) of a database in WAL mode.
///
/// Why: a read through GRDB's `DatabasePool` takes a reader from its pool under a lock and a
/// semaphore, and checks that no reader of the pool runs on the calling thread: about 8 % of a
/// keyset page's CPU time (`Benchmarks/datasette.sh`, case (a)), more than SQLite took to read its
/// rows. Here a read pops an idle connection off a stack under a mutex, and pushes it back.
///
/// Bounded: at most ``maxIdle`` connections are kept between reads (each with SQLite's own page
/// cache, 2 MB by default); a read that finds none idle opens one, which is closed after it when
/// that many are already kept. Reads run on database lanes, whose number bounds how many run at once.
final class ReadConnections: Sendable {
    /// The most connections kept idle between reads.
    static let maxIdle = 8

    private let path: String
    private let configuration: Configuration
    private let idle = Mutex<[DatabaseQueue]>([])

    /// Connections to the database at `path`, read-only, each waiting up to `busyTimeout` while
    /// another process holds a lock (as the store's own readers do).
    init(path: String, busyTimeout: Double) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        self.path = path
        self.configuration = configuration
    }

    /// How many connections are idle now.
    var idleCount: Int { idle.withLock { $0.count } }

    /// Runs `body` on an idle connection, or a new one, outside any transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer {
            idle.withLock { connections in
                if connections.count < Self.maxIdle {
                    connections.append(connection)
                }
            }
        }
        return try connection.inDatabase(body)
    }
}
