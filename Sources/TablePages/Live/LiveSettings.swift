/// Limits of the live-update machinery.
public struct LiveSettings: Sendable {
    /// Patches kept per page variant for clients that reconnect with `Last-Event-ID`.
    public var patchLogCapacity = 256
    /// Bytes of patches kept per page variant (both wire formats counted); the oldest go first.
    /// A patch is about 1 KiB per changed row, so 1 MiB keeps the full count for small changes and
    /// fewer for large ones, whose clients would rather refetch anyway.
    public var patchLogByteLimit = 1 << 20
    /// Unread bytes a subscriber may have before it is sent `reset` and dropped.
    public var subscriberBufferLimit = 256 * 1024
    /// The most pages one shared event stream (`/-/events`) may follow; a request for more is
    /// answered 400. Each page costs a subscription and its replay; the browser's page script opens
    /// a second stream past 40 pages (or a 3,000-byte URL) anyway, so 64 leaves room.
    public var maxPagesPerStream = 64
    /// Bytes of a CSV or NDJSON export waiting for a slow client before reading pauses.
    public var exportBufferBytes = 256 * 1024
    /// Bytes of answers kept for inserts sent with an `Idempotency-Key` (for 24 hours each, oldest
    /// out first), so that a client may send an insert again without adding the row twice. An
    /// answer is about 200 bytes: 1 MiB keeps about 5,000.
    public var idempotencyByteLimit = 1 << 20
    /// The most CSV or NDJSON exports running at once, each holding a background thread while it
    /// reads; more are answered 503 with `Retry-After`.
    public var maxConcurrentExports = 8
    /// Rows per section in a page render before a `next` link.
    public var pageRowLimit = 100
    /// The most rows one section request may ask for.
    public var maxRowsPerRequest = 1000
    /// The most variants of one page kept live at once. Past it, making a new variant drops the
    /// least recently used ones that nobody is subscribed to (a page whose variants come from open
    /// query values, such as filters, would otherwise keep a table for every value ever asked).
    public var maxVariantsPerPage = 32
    /// The most page variants kept live in the whole process. Past it, or past
    /// ``liveVariantsByteLimit``, making a new variant drops the least recently used ones of any
    /// page that nobody is subscribed to. Variants with subscribers are never dropped, but count.
    public var maxLiveVariants = 512
    /// Estimated bytes all live variants may hold together (see `TableMemoryEstimate`): their
    /// tables' rows, and their patch logs. 256 MiB holds about 250 variants of 1,000 short
    /// database rows (about 1 MB each), or about 25 of the largest windows (10,000 rows, grouped).
    public var liveVariantsByteLimit = 256 << 20
    /// Bytes of rendered pages kept for answering unchanged pages at once, for the whole process.
    /// 64 MiB holds about 100 of the largest pages (1,000 rows per section) or thousands of
    /// ordinary ones: enough for every page people are looking at, while a client walking through
    /// distinct URLs only pushes out the least recently used.
    public var renderCacheByteLimit = 64 << 20
    /// The most page hosts doing work at once: each host runs on one of this many lanes, where its
    /// delegates may block on a database. It caps concurrent database work.
    public var databaseConcurrency = 4
    /// Jobs that may wait on one lane; a request for a page on a lane this busy is answered 503
    /// with `Retry-After` rather than queued.
    public var databaseQueueLimit = 32
    /// Jobs that may wait on the query lane, where pages of visitors' and canned queries run
    /// (``PageDefinition/runsOnQueryLane``): their first runs and re-runs, one at a time as the SQL
    /// page's; a request for such a page past it is answered 503 with `Retry-After`. Table pages
    /// never wait there.
    public var queryLaneQueueLimit = 8
    /// Variants of pages that run on the query lane (live queries) one client (an address; for
    /// IPv6 its /64) may watch at once; another stream of its on another variant is refused 429
    /// (a `refused` event on `/-/events`), so one client cannot hold every variant such a page keeps.
    public var maxWatchedQueriesPerClient = 4
    /// How long a variant of a page that runs on the query lane (a live query) is kept once nobody
    /// watches or asks for it; then it is dropped, and the next request runs the query afresh.
    public var unwatchedQueryLifetime: Duration = .seconds(60)
    /// Jobs that may wait on the positional lane, where pages of rows read from a position past the
    /// first page (`?_at=N`) run: such a read may step over every row before it (an order no index
    /// covers), so it waits there, one at a time, rather than on the lanes fresh pages need; past
    /// it, 503 with `Retry-After`.
    public var positionalQueueLimit = 4
    /// How long request handling (Swift's task pool, or a database lane) may leave a health probe
    /// unanswered before `/healthz` (the task pool) or `/readyz` (either) answers 503.
    public var stallTimeout: Duration = .seconds(5)
    /// How long `/readyz` waits for its ``ReadinessProbe``s (the stores) before it answers 503: shorter
    /// than the one second load balancers commonly give a probe, so they get the 503.
    public var readinessTimeout: Duration = .milliseconds(500)

    /// The defaults.
    public init() {}
}
