/// The recent patches of one page variant, kept so a client that reconnects with `Last-Event-ID`
/// receives exactly what it missed.
///
/// An event id names a state of the table, not a count: each patch leads from the state before it
/// (the previous patch's id) to the state its id names. Ids need not be consecutive (a page that
/// follows its database's clock skips the versions that did not change it) nor comparable across
/// sources; they are unique within one host. A client is replayed the patches after the state it
/// names only when that state is in the chain kept here; any other id gets `reset`, never a
/// patch that starts from a state the client does not have.
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
        /// The id names no state kept here (too old, from another instance or an earlier run):
        /// refetch the page.
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
    /// The state the newest patch led to (the table's state when no patch was published yet).
    private(set) var latestID: Int
    /// The state the oldest kept patch starts from.
    private(set) var baseID: Int
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
        baseID = latestID
    }

    /// Patches kept now.
    var count: Int { entries.count - start }

    /// Records the patch from ``latestID`` to `entry.id`.
    mutating func append(_ entry: Entry) {
        entries.append(entry)
        byteCount += entry.byteCount
        latestID = entry.id
        while count > capacity || byteCount > byteLimit {
            byteCount -= entries[start].byteCount
            baseID = entries[start].id
            // Released now: a log over its byte limit must not hold the dropped bytes until the trim.
            entries[start] = Entry(id: entries[start].id, withHTML: [], withoutHTML: [], withHTMLWithoutControls: [])
            start += 1
        }
        if start > capacity {
            entries.removeFirst(start)
            start = 0
        }
    }

    /// The patches from the state `lastSeenID` names to the latest, or `.reset` when that state is
    /// not in the kept chain.
    func replay(after lastSeenID: Int) -> Replay {
        if lastSeenID == latestID { return .upToDate }
        let kept = entries[start...]
        if lastSeenID == baseID, !kept.isEmpty { return .entries(kept) }
        // Newest first: a reconnecting client is usually a few patches behind.
        guard let seen = kept.lastIndex(where: { $0.id == lastSeenID }) else { return .reset }
        return .entries(kept[(seen + 1)...])
    }
}
