/// The recent patches of one page variant, kept so a client that reconnects with `Last-Event-ID`
/// receives exactly what it missed.
///
/// Event ids are consecutive: each published patch has the previous id + 1.
struct PatchLog: Sendable {
    /// One published patch, encoded once per wire format.
    struct Entry: Sendable {
        let id: Int
        let withHTML: [UInt8]
        let withoutHTML: [UInt8]
        /// The HTML encoding as viewers who may not write see it; the same array as `withHTML`
        /// (costing nothing more) when the patch shows no controls.
        let withHTMLWithoutControls: [UInt8]
        // Whether `withHTMLWithoutControls` has bytes of its own.
        private let hasOwnReadOnlyHTML: Bool

        init(id: Int, withHTML: [UInt8], withoutHTML: [UInt8], withHTMLWithoutControls: [UInt8]) {
            self.id = id
            self.withHTML = withHTML
            self.withoutHTML = withoutHTML
            hasOwnReadOnlyHTML = withHTMLWithoutControls != withHTML
            self.withHTMLWithoutControls = hasOwnReadOnlyHTML ? withHTMLWithoutControls : withHTML
        }

        func bytes(for format: PatchFormat) -> [UInt8] {
            switch format {
            case .html: withHTML
            case .htmlWithoutControls: withHTMLWithoutControls
            case .json: withoutHTML
            }
        }

        /// What the entry costs the log: every encoding it holds.
        var byteCount: Int { withHTML.count + withoutHTML.count + (hasOwnReadOnlyHTML ? withHTMLWithoutControls.count : 0) }
    }

    /// What a reconnecting client gets.
    enum Replay: Equatable {
        /// Nothing was missed.
        case upToDate
        /// These patches, oldest first.
        case entries(ArraySlice<Entry>)
        /// The id is too old, unknown or from the future: refetch the page.
        case reset

        static func == (lhs: Replay, rhs: Replay) -> Bool {
            switch (lhs, rhs) {
            case (.upToDate, .upToDate), (.reset, .reset): true
            case (.entries(let a), .entries(let b)): a.map(\.id) == b.map(\.id)
            default: false
            }
        }
    }

    /// The most patches kept.
    let capacity: Int
    /// The most bytes kept, every wire format of every kept patch counted.
    let byteLimit: Int
    private(set) var latestID: Int
    /// Bytes of the patches kept now.
    private(set) var byteCount = 0
    // Entries before `start` are no longer kept (their bytes already released); they are removed
    // in bulk, so an append stays amortised O(1).
    private var entries: [Entry] = []
    private var start = 0

    /// A log whose newest id is `latestID`, holding at most `capacity` patches and `byteLimit` bytes.
    init(capacity: Int, byteLimit: Int = .max, latestID: Int) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(0, byteLimit)
        self.latestID = latestID
    }

    /// Patches kept now.
    var count: Int { entries.count - start }

    mutating func append(_ entry: Entry) {
        // Replays rely on consecutive ids. Should one ever be skipped, the older entries could not be
        // replayed without a gap, so they are dropped and clients behind them get a reset instead.
        if entry.id != latestID + 1 {
            entries.removeAll()
            start = 0
            byteCount = 0
        }
        entries.append(entry)
        byteCount += entry.byteCount
        latestID = entry.id
        while count > capacity || byteCount > byteLimit {
            byteCount -= entries[start].byteCount
            // Released now: a log over its byte limit must not hold the dropped bytes until the trim.
            entries[start] = Entry(id: entries[start].id, withHTML: [], withoutHTML: [], withHTMLWithoutControls: [])
            start += 1
        }
        if start > capacity {
            entries.removeFirst(start)
            start = 0
        }
    }

    /// The patches after `lastSeenID`, or `.reset` when they are not all here.
    func replay(after lastSeenID: Int) -> Replay {
        if lastSeenID == latestID { return .upToDate }
        guard lastSeenID < latestID else { return .reset }
        let kept = entries[start...]
        guard let oldest = kept.first, oldest.id <= lastSeenID + 1 else { return .reset }
        return .entries(kept[(kept.startIndex + (lastSeenID + 1 - oldest.id))...])
    }
}
