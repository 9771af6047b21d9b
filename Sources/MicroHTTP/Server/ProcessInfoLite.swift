#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few process facts MicroHTTP needs, without pulling in Foundation.
public enum ProcessInfoLite {
    /// The number of cores online, at least 1.
    public static var activeProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The hard limit on open files (what the soft limit may be raised to), or nil when it cannot be
    /// read; `Int.max` when unlimited.
    public static var openFileHardLimit: Int? {
        var limits = rlimit()
        guard getrlimit(openFiles, &limits) == 0 else { return nil }
        // RLIM_INFINITY is all ones; Int(clamping:) turns it into `Int.max`.
        return Int(clamping: limits.rlim_max)
    }

    /// The soft limit on open files (the one in force), or nil when it cannot be read.
    public static var openFileSoftLimit: Int? {
        var limits = rlimit()
        guard getrlimit(openFiles, &limits) == 0 else { return nil }
        return Int(clamping: limits.rlim_cur)
    }

    /// Raises the soft limit on open files towards `wanted` (capped by the hard limit) and returns
    /// the limit in force, so a large connection limit is not undercut by `ulimit -n`.
    @discardableResult
    public static func raiseOpenFileLimit(to wanted: Int) -> Int {
        var limits = rlimit()
        guard getrlimit(openFiles, &limits) == 0 else { return 0 }
        let target = min(rlim_t(wanted), limits.rlim_max)
        if limits.rlim_cur < target {
            limits.rlim_cur = target
            _ = setrlimit(openFiles, &limits)
            _ = getrlimit(openFiles, &limits)
        }
        return Int(clamping: limits.rlim_cur)
    }

    // Glibc imports the resource names as an enum of its own type.
    #if canImport(Glibc)
    private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let openFiles = RLIMIT_NOFILE
    #endif
}
