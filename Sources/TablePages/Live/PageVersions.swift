/// How a page host numbers its table's states: the `version` of its renders and the event id of
/// the patch that led to each.
///
/// A page whose ``ChangeFeed`` has a clock (``ChangeFeed/init(clock:)``, a database's version
/// counter) takes that clock's value for a state read while the clock stood still: the clock read
/// before and after the read agree, so the read saw exactly that version of the data. Every
/// instance that reads the same version then names the same state with the same id, and a client
/// moving between instances with `Last-Event-ID` is replayed rather than reset.
///
/// Any other state gets an id of this host alone, from a random start in ``localIDs``: a state
/// read while the clock moved, or one changed by something other than a re-read (an action that
/// updates the table itself, a background update through the table's updater). After such a
/// change the table holds what this instance alone did (a thumbnail made here), so it keeps local
/// ids from then on. Local ids lie above any clock value and below 2⁵³, so JavaScript reads them
/// exactly; an id from another instance or an earlier run is, but for a chance of about one in
/// 2⁵², unknown here, and answered with `reset`.
struct PageVersions {
    /// Where ids of one host start: above any clock value, and below 2⁵³ with room for 2³² states.
    static let localIDs: Range<Int> = (1 << 52)..<((1 << 53) - (1 << 32))

    /// Whether states are still numbered by the clock when reads allow it.
    private(set) var followsClock: Bool
    // Set between `beginRead` and `endRead`: states published meanwhile come from a re-read.
    private var isReading = false
    // The clock's value when the current re-read saw exactly one version.
    private var readVersion: Int?
    private var nextLocalID: Int
    // The last clock value used as an id: clock values only grow, so no id is handed out twice.
    private var lastClockID = -1

    /// Versions of a page with a clock (`followsClock`) or without.
    init(followsClock: Bool) {
        self.followsClock = followsClock
        nextLocalID = Int.random(in: Self.localIDs)
    }

    /// States published until ``endRead()`` come from reading the page's data, at `version` of the
    /// clock when the read saw exactly that one (nil when it may have seen several).
    mutating func beginRead(at version: Int?) {
        isReading = true
        readVersion = version
    }

    /// Ends what ``beginRead(at:)`` began.
    mutating func endRead() {
        isReading = false
        readVersion = nil
    }

    /// The version of the next state: the read's clock value when it fits, else a local id.
    mutating func next() -> Int {
        if !isReading { followsClock = false }
        if followsClock, let readVersion, readVersion > lastClockID, readVersion < Self.localIDs.lowerBound {
            lastClockID = readVersion
            return readVersion
        }
        defer { nextLocalID += 1 }
        return nextLocalID
    }
}
