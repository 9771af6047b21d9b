#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A wall-clock time for a log line, written as `2026-11-22T10:20:35.123Z` (UTC, milliseconds).
public struct LogTime: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int
    /// Milliseconds past `seconds`, 0–999.
    public var milliseconds: Int

    /// The time `seconds` and `milliseconds` after the Unix epoch.
    public init(seconds: Int, milliseconds: Int) {
        self.seconds = seconds
        self.milliseconds = milliseconds
    }

    /// Now, from the system's real-time clock.
    public static var now: LogTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return LogTime(seconds: spec.tv_sec, milliseconds: spec.tv_nsec / 1_000_000)
    }

    /// This time moved back by `duration` (an access line's time, from when the request finished).
    func earlier(by duration: Duration) -> LogTime {
        let total = seconds * 1000 + milliseconds
            - Int(duration.components.seconds) * 1000 - Int(duration.components.attoseconds / 1_000_000_000_000_000)
        return LogTime(seconds: total.floorDivided(by: 1000), milliseconds: total - total.floorDivided(by: 1000) * 1000)
    }

    /// The 20 bytes `YYYY-MM-DDTHH:MM:SS.` for `seconds`, then the three millisecond digits and `Z`.
    func append(to out: inout [UInt8]) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        appendDigits(Int(parts.tm_year) + 1900, count: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, count: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), count: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), count: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(milliseconds, count: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }
}

/// Appends `value` (not negative) as exactly `count` decimal digits, zero-padded.
func appendDigits(_ value: Int, count: Int, to out: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<max(1, count) { divisor *= 10 }
    while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / divisor % 10))
        divisor /= 10
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
