import Glibc

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func milliseconds(_ nanoseconds: UInt64) -> Double {
    Double(nanoseconds) / 1_000_000
}

/// The description of an errno value, e.g. "ECONNREFUSED: Connection refused".
func errorText(_ code: Int32) -> String {
    let names: [Int32: String] = [
        ECONNREFUSED: "ECONNREFUSED", ECONNRESET: "ECONNRESET", ETIMEDOUT: "ETIMEDOUT", EMFILE: "EMFILE",
        ENFILE: "ENFILE", EADDRNOTAVAIL: "EADDRNOTAVAIL", EPIPE: "EPIPE", ENOBUFS: "ENOBUFS",
        EAGAIN: "EAGAIN", ECONNABORTED: "ECONNABORTED",
    ]
    let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    return names[code].map { "\($0): \(message)" } ?? message
}

/// Raises this process's soft limit on open files to its hard limit; returns the new soft limit.
func raiseOpenFileLimit() -> UInt64 {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0 else { return 0 }
    if limit.rlim_cur < limit.rlim_max {
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return UInt64(limit.rlim_cur)
}

/// The resident set size of process `pid` in KiB (VmRSS of /proc/PID/status), nil if unreadable.
func residentKiB(of pid: Int32) -> Int? {
    guard let status = readSmallFile("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        // "VmRSS:   12345 kB"
        if fields.count >= 2, let value = Int(fields[1]) { return value }
    }
    return nil
}

/// The CPU time process `pid` has used, user plus system, in milliseconds (fields 14 and 15 of
/// /proc/PID/stat, in clock ticks), nil if unreadable. Unlike wall-clock latency it hardly depends
/// on what else the machine is doing.
func cpuMilliseconds(of pid: Int32) -> Double? {
    guard let stat = readSmallFile("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
    // After "pid (comm)": state is field 3, utime 14, stime 15.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The 1, 5 and 15 minute load averages from /proc/loadavg, e.g. "1.23 0.98 0.50".
func loadAverages() -> String {
    guard let text = readSmallFile("/proc/loadavg") else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The IPv4 loopback address 127.0.0.1 at `port`.
func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port)).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// Starts a non-blocking TCP connection to `address`. Returns the socket, and whether the
/// connection is already complete (loopback connects may finish at once); throws errno on failure.
/// With `source`, the socket is bound to that loopback address first (any port), so the server sees
/// it as that client: the server caps connections and streams per client address.
func startConnect(to address: sockaddr_in, from source: UInt32? = nil) -> Result<(fd: Int32, connected: Bool), ErrnoError> {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return .failure(ErrnoError(code: errno, call: "socket")) }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = source.bigEndian
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound != 0 {
            let code = errno
            close(fd)
            return .failure(ErrnoError(code: code, call: "bind"))
        }
    }
    var target = address
    let result = withUnsafePointer(to: &target) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    if result == 0 { return .success((fd, true)) }
    let code = errno
    if code == EINPROGRESS { return .success((fd, false)) }
    close(fd)
    return .failure(ErrnoError(code: code, call: "connect"))
}

/// The pending error of a socket (SO_ERROR), 0 if none.
func socketError(_ fd: Int32) -> Int32 {
    var code: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
    return code
}

struct ErrnoError: Error {
    var code: Int32
    var call: String
    var description: String { "\(call): \(errorText(code))" }
}

extension Array where Element == UInt8 {
    /// The offset of the first occurrence of `needle`, if any.
    func firstRange(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first, count - start >= needle.count else { return nil }
        var index = start
        let last = count - needle.count
        while index <= last {
            if self[index] == first {
                var matched = 1
                while matched < needle.count, self[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}

/// `value` with `digits` decimals, e.g. fixed(12.345, 1) == "12.3" (without Foundation's String(format:)).
func fixed(_ value: Double, _ digits: Int = 1) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let divisor = Int64(scale)
    var text = "\(scaled / divisor)"
    if digits > 0 {
        let fraction = "\(scaled % divisor)"
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return (value < 0 && scaled != 0 ? "-" : "") + text
}
