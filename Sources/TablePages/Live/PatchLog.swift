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

        func bytes(for format: PatchFormat) -> [UInt8] {
            format == .html ? withHTML : withoutHTML
        }
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

    let capacity: Int
    private(set) var latestID: Int
    private var entries: [Entry] = []

    /// A log whose newest id is `latestID`, holding at most `capacity` patches.
    init(capacity: Int, latestID: Int) {
        self.capacity = max(1, capacity)
        self.latestID = latestID
    }

    mutating func append(_ entry: Entry) {
        // Replays rely on consecutive ids. Should one ever be skipped, the older entries could not be
        // replayed without a gap, so they are dropped and clients behind them get a reset instead.
        if entry.id != latestID + 1 { entries.removeAll() }
        entries.append(entry)
        latestID = entry.id
        if entries.count > capacity * 2 {
            // Trimmed in bulk so the append stays amortised O(1).
            entries.removeFirst(entries.count - capacity)
        }
    }

    /// The patches after `lastSeenID`, or `.reset` when they are not all here.
    func replay(after lastSeenID: Int) -> Replay {
        if lastSeenID == latestID { return .upToDate }
        guard lastSeenID < latestID else { return .reset }
        let kept = entries.suffix(capacity)
        guard let oldest = kept.first, oldest.id <= lastSeenID + 1 else { return .reset }
        return .entries(kept[(kept.startIndex + (lastSeenID + 1 - oldest.id))...])
    }
}
