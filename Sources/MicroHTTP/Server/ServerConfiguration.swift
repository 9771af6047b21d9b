/// How a ``Server`` listens and what it allows each client; every limit has a safe default.
///
///     var configuration = ServerConfiguration()
///     configuration.port = 0          // pick a free port; read it back from `server.port`
///     configuration.threads = 4
public struct ServerConfiguration: Sendable {
    /// The address to listen on: a numeric IPv4/IPv6 address or a host name. `0.0.0.0` listens on
    /// every IPv4 interface, `::` on every interface (IPv4 and IPv6).
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port: Int = 8080
    /// Event threads in libmicrohttpd's pool; defaults to the number of cores.
    public var threads: Int = ProcessInfoLite.activeProcessorCount
    /// Connections held open at once, across all clients. Defaults to
    /// ``defaultConnectionLimit(openFileHardLimit:)`` of this process's hard limit on open files
    /// (19,488 where 20,000 files are allowed): every connection is a descriptor, and a page may
    /// have tens of thousands of live subscribers. The soft limit is raised to match at start.
    public var connectionLimit: Int = ServerConfiguration.defaultConnectionLimit(openFileHardLimit: ProcessInfoLite.openFileHardLimit)
    /// Connections one client address (one IPv6 /64) may hold at once; 0 means no limit. Counted
    /// when a connection opens, before any header is read, so by the socket's peer: a trusted proxy
    /// (``trustedProxies``) is exempt, and only ``connectionLimit`` bounds its connections.
    public var perClientConnectionLimit: Int = 1_000
    /// Reverse proxies whose forwarding headers (`X-Forwarded-For`, `Forwarded`,
    /// `X-Forwarded-Proto`) are believed; empty (the default) believes none. Requests from these
    /// addresses count as coming from the client the proxy names: in ``Request/remoteAddress``,
    /// the access log, and every per-client limit but the connection limit above.
    public var trustedProxies: [AddressRange] = []
    /// Seconds a connection may sit idle (no request bytes) before it is closed; 0 means never.
    /// Event streams are exempt: their heartbeats find dead peers instead.
    public var connectionTimeout: Int = 60
    /// How long a client may take to send a whole request, head and body, however it trickles it;
    /// zero means no deadline. The clock starts when the connection opens, and on a kept-alive
    /// connection when the next request's first bytes arrive. A late client is disconnected, or
    /// answered `408` if its head had arrived. Requests whose handler is running and event streams
    /// are exempt.
    public var requestTimeout: Duration = .seconds(30)
    /// Event streams one client address may hold open at once; past it, a stream request is
    /// answered `429`. 0 means no limit. Counted per IPv6 /64, and by the client a trusted proxy
    /// names (``trustedProxies``).
    public var maxStreamsPerClient: Int = 256
    /// Bytes of memory each connection may use for its request line, headers and buffers
    /// (libmicrohttpd's per-connection memory pool), at least ``minimumConnectionMemoryLimit``.
    /// The default 7.5 KiB holds request heads up to about 6.1 KB in a few fields, about 4.5 KB with a
    /// 1 KB `Cookie` field (which libmicrohttpd copies to parse) and about 2.8 KB spread over 55
    /// short fields (each costs a record in the pool); browsers send 1–3 KB. A larger head is
    /// answered `431` (a very long URL may get `414` from libmicrohttpd itself). The pool is most of
    /// what an idle live subscriber costs: libmicrohttpd 0.9.75 zeroes the half of it that it first
    /// lends to the read buffer, and all of it between keep-alive requests, so nearly all of it is
    /// resident for every open connection, and each 512 bytes of pool is 0.5 KiB per subscriber (an
    /// idle subscriber costs about 9.5 KiB in all with the default, about 14.4 KiB with 16 KiB,
    /// which takes heads up to about 13.2–14.9 KB). Raise it for clients that send larger heads.
    public var connectionMemoryLimit: Int = ServerConfiguration.defaultConnectionMemoryLimit
    /// The largest request body accepted; a larger one is answered `413 Content Too Large`.
    public var maxBodySize: Int = 1 << 20
    /// How often each open event stream gets a comment line, to keep proxies from closing idle
    /// streams and to find clients that went away.
    public var heartbeatInterval: Duration = .seconds(15)
    /// How long shutdown waits for in-flight requests before it answers them `503`.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Told of every request answered and every event stream opened and closed, e.g. to count them
    /// for metrics; nil (the default) costs nothing per request.
    public var observer: (any ServerObserver)?
    /// How access log lines are written (the access log is on when the server's logger logs `info`).
    public var accessLogFormat: LogFormat = .text
    /// Bytes of access log lines that may wait for the writer (counted as each line's path plus
    /// 128 bytes). 1 MiB holds several thousand requests, what the fastest static file route
    /// answers in about a twentieth of a second here; the writer starts once it is half full.
    /// Lines past it are dropped and counted, never waited for: the event threads must not block
    /// on a slow log.
    public var accessLogBufferSize: Int = 1 << 20
    /// How long an access log line may wait to be written; shutdown writes every line regardless.
    public var accessLogFlushInterval: Duration = .seconds(1)
    /// Where access log lines go.
    public var accessLogOutput: LogOutput = .standardError

    /// The default of ``connectionMemoryLimit``: 7.5 KiB, so that an idle live subscriber costs
    /// less than 10 KiB in all (about 9.5 KiB) and 15,000 of them about 140 MiB.
    public static let defaultConnectionMemoryLimit = 7_680

    /// The smallest ``connectionMemoryLimit`` in force: below it the pool cannot hold an ordinary
    /// request head and the response head too.
    public static let minimumConnectionMemoryLimit = 6_144

    /// Open files kept back from connections for everything else the process opens: database files
    /// and their journals, static files, logs, the listening socket, libmicrohttpd's epoll and
    /// wake-up descriptors (a few per event thread).
    public static let reservedFileDescriptors = 512

    /// The most connections any default allows: beyond it memory, not descriptors, is the bound
    /// (about 10–15 KiB per idle connection).
    public static let maximumDefaultConnectionLimit = 100_000

    /// The connection limit for a process that may open `openFileHardLimit` files: that limit less
    /// ``reservedFileDescriptors``, at most ``maximumDefaultConnectionLimit``, at least 64; 10,000
    /// when the limit is unknown.
    public static func defaultConnectionLimit(openFileHardLimit: Int?) -> Int {
        guard let openFileHardLimit else { return 10_000 }
        let (available, overflow) = openFileHardLimit.subtractingReportingOverflow(reservedFileDescriptors)
        return min(maximumDefaultConnectionLimit, max(64, overflow ? 64 : available))
    }

    /// Creates the default configuration.
    public init() {}

    /// Creates a configuration for a host and port, with defaults for the rest.
    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }
}
