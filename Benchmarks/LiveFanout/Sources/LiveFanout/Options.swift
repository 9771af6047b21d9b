import Glibc

/// The command line. Parsed by hand so that the package needs no dependency.
struct Options {
    var port = 8080
    var subscribers = 5000
    var pid: Int32?
    var page = "checklist"
    var row = "item-2"
    var timeout = 10.0
    var batch = 500
    var settle = 2.0
    var perAddress = 200
    var actionPort: Int?  // where the writes go (instance A); nil: --port
    var writes: Int?  // nil: the single select of the original benchmark
    var interval = 50.0  // milliseconds, the least time between two writes' sends

    static let usage = """
        USAGE: LiveFanout [--port <port>] [--subscribers <n>] [--pid <pid>] [--page <page>]
                          [--row <row>] [--timeout <seconds>] [--batch <n>] [--settle <seconds>]
                          [--per-address <n>] [--action-port <port>] [--writes <n>]
                          [--interval <ms>]

        Opens <n> Server-Sent Events subscriptions to GET /pages/<page>/events on 127.0.0.1:<port>,
        then sends one POST /pages/<page>/rows/<row>/select and measures, per subscriber, the time
        until its stream holds `event: patch`. With --pid, also the server's resident memory
        (VmRSS) before and after the subscribers connect.

        With --writes (or --action-port), sends <n> selects one after another, each on a connection
        of its own to --action-port (another instance on the same database, say), while the
        subscribers listen on --port. Write k+1 goes once every subscriber has write k's patch (or
        --timeout passed) and its POST was answered, and no sooner than --interval ms after write k
        was sent. Each (write, subscriber) pair is timed from the POST being sent to that
        subscriber's first `event: patch` after it; p50/p90/p99/max are reported over all pairs and
        over each write's slowest subscriber, with the pairs missed.

        OPTIONS:
          --port <port>          Server port on 127.0.0.1 (default: 8080).
          --subscribers <n>      Subscribers to open (default: 5000).
          --pid <pid>            Server process whose VmRSS is read from /proc/<pid>/status.
          --page <page>          Page to subscribe to (default: checklist).
          --row <row>            Row to select (default: item-2).
          --timeout <seconds>    How long to wait for every subscriber's patch (default: 10).
          --batch <n>            Connections opened at once; each batch's response headers are
                                 awaited before the next (default: 500).
          --settle <seconds>     Idle time before the memory reading after connecting (default: 2).
          --per-address <n>      Subscribers per client address: the first <n> connect from
                                 127.0.0.2, the next from 127.0.0.3, and so on, so the server's
                                 per-address caps (256 streams by default) hold as for real
                                 clients; 0 connects all from 127.0.0.1 (default: 200).
          --action-port <port>   Send the select(s) to this port on 127.0.0.1 instead of --port.
          --writes <n>           Send <n> selects in sequence (see above); --timeout is per write.
          --interval <ms>        Least time between two writes' sends (default: 50).
          -h, --help             Show this help.
        """

    /// Parses `arguments` (without the program name); prints an error and exits 64 on a bad one.
    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func fail(_ message: String) -> Never {
            printError("LiveFanout: \(message)\n\n\(usage)")
            exit(64)
        }
        while let flag = rest.popFirst() {
            if flag == "-h" || flag == "--help" {
                print(usage)
                exit(0)
            }
            var name = flag
            var value: String?
            if let equals = flag.firstIndex(of: "=") {
                name = String(flag[..<equals])
                value = String(flag[flag.index(after: equals)...])
            }
            func next() -> String {
                if let value { return value }
                guard let following = rest.popFirst() else { fail("\(name) needs a value.") }
                return following
            }
            func integer(_ range: ClosedRange<Int>) -> Int {
                let text = next()
                guard let number = Int(text), range.contains(number) else {
                    fail("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound); got '\(text)'.")
                }
                return number
            }
            func seconds() -> Double {
                let text = next()
                guard let number = Double(text), number.isFinite, number >= 0 else {
                    fail("\(name) must be a number of seconds; got '\(text)'.")
                }
                return number
            }
            switch name {
            case "--port": options.port = integer(1...65_535)
            case "--subscribers": options.subscribers = integer(1...1_000_000)
            case "--pid": options.pid = Int32(integer(1...Int(Int32.max)))
            case "--page": options.page = next()
            case "--row": options.row = next()
            case "--timeout": options.timeout = seconds()
            case "--batch": options.batch = integer(1...1_000_000)
            case "--settle": options.settle = seconds()
            case "--per-address": options.perAddress = integer(0...1_000_000)
            case "--action-port": options.actionPort = integer(1...65_535)
            case "--writes": options.writes = integer(1...1_000_000)
            case "--interval":
                let text = next()
                guard let number = Double(text), number.isFinite, number >= 0 else {
                    fail("--interval must be a number of milliseconds; got '\(text)'.")
                }
                options.interval = number
            default: fail("unknown option '\(flag)'.")
            }
        }
        for (what, text) in [("--page", options.page), ("--row", options.row)] {
            let allowed = text.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
            if text.isEmpty || !allowed { fail("\(what) must be letters, digits, '-' or '_'; got '\(text)'.") }
        }
        if options.perAddress > 0, (options.subscribers - 1) / options.perAddress > 250 {
            fail("--subscribers / --per-address needs more than 250 addresses (127.0.0.2-127.0.0.252); raise --per-address.")
        }
        return options
    }

    /// Whether to run the sequence of writes rather than the original single select.
    var isWriteSequence: Bool { writes != nil || actionPort != nil }
}

/// Writes `message` and a newline to standard error (Glibc's `stderr` is not concurrency-safe).
func printError(_ message: String) {
    var bytes = Array((message + "\n").utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
