#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where table versions start: the Unix time in milliseconds when the table is made.
///
/// Versions are event ids. Starting each table above the versions of any earlier table of the same
/// variant (unless that one published more than a thousand patches per second on average) means a
/// `Last-Event-ID` from before a restart, or from a variant's table that was dropped and made again,
/// is seen as too old and answered with `reset`, never replayed against different patches.
enum VersionEpoch {
    /// The version a table made now starts at.
    static var now: Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }
}
