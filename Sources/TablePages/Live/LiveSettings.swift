/// Limits of the live-update machinery.
public struct LiveSettings: Sendable {
    /// Patches kept per page variant for clients that reconnect with `Last-Event-ID`.
    public var patchLogCapacity = 256
    /// Unread bytes a subscriber may have before it is sent `reset` and dropped.
    public var subscriberBufferLimit = 256 * 1024
    /// Rows per section in a page render before a `next` link.
    public var pageRowLimit = 100
    /// The most rows one section request may ask for.
    public var maxRowsPerRequest = 1000
    /// The most variants of one page kept live at once. Past it, making a new variant drops the
    /// least recently used ones that nobody is subscribed to (a page whose variants come from open
    /// query values, such as filters, would otherwise keep a table for every value ever asked).
    public var maxVariantsPerPage = 32
    /// The most page hosts doing work at once: each host runs on one of this many lanes, where its
    /// delegates may block on a database. It caps concurrent database work.
    public var databaseConcurrency = 4
    /// Jobs that may wait on one lane; a request for a page on a lane this busy is answered 503
    /// with `Retry-After` rather than queued.
    public var databaseQueueLimit = 32
    /// How long request handling (Swift's task pool, or a database lane) may leave a health probe
    /// unanswered before `/healthz` answers 503.
    public var stallTimeout: Duration = .seconds(5)

    /// The defaults.
    public init() {}
}
