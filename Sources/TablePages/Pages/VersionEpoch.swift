#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where this run's table versions start: the Unix time in milliseconds when the process started.
///
/// Versions are event ids. Starting each run above the last one's (unless it published more than a
/// thousand patches per second on average) means a `Last-Event-ID` from before a restart is seen
/// as too old and answered with `reset`, never replayed against different patches.
enum VersionEpoch {
    static let current: Int = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }()
}
