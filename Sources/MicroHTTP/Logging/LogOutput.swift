#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where finished log lines go. It is handed whole lines only, always ending in a newline, and is
/// called from a thread that may block (the access log's writer, or whoever logged).
public struct LogOutput: Sendable {
    private let body: @Sendable ([UInt8]) -> Void

    /// Lines handed to `write`, one call per batch of whole lines.
    public init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
        body = write
    }

    /// Writes `lines` (whole lines, each ending in a newline).
    public func write(_ lines: [UInt8]) {
        body(lines)
    }

    /// The process's standard error, written with `write(2)` in pieces of at most `PIPE_BUF` bytes
    /// that end at a line's end, so that lines other writers send to the same pipe (a container
    /// runtime collects both) never land inside one of ours.
    public static let standardError = LogOutput { lines in
        writeWholeLines(lines, to: 2)
    }

    static func writeWholeLines(_ lines: [UInt8], to descriptor: Int32) {
        lines.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                var end = min(all.count, start + Int(PIPE_BUF))
                if end < all.count {
                    // Back to the last line end in the piece; a single longer line goes alone.
                    var cut = end
                    while cut > start, all[cut - 1] != UInt8(ascii: "\n") { cut -= 1 }
                    if cut > start {
                        end = cut
                    } else {
                        end = start
                        while end < all.count, all[end] != UInt8(ascii: "\n") { end += 1 }
                        end = min(all.count, end + 1)
                    }
                }
                var offset = start
                while offset < end {
                    let written = systemWrite(descriptor, all.baseAddress! + offset, end - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0, errno == EINTR {
                        continue
                    } else if written < 0, errno == EAGAIN {
                        // A non-blocking descriptor that is full: wait until it drains, not spin.
                        var wait = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&wait, 1, 100)
                    } else {
                        return  // Standard error is gone (closed pipe): nowhere to say so either.
                    }
                }
                start = end
            }
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
