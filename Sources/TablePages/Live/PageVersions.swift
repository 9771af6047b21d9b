#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a page host numbers its table's states: the `version` of its renders and the event id of
/// the patch that led to each.
///
/// A page whose root is an ``ObservedSource`` names a state it read by the version of the data it
/// read, which the store reads in the same snapshot as the data. Every instance of the same build
/// and render settings that reads the same version names the same state alike, so a client moving
/// between instances, or reconnecting after a restart, with `Last-Event-ID` is replayed rather than
/// reset. The id is the version plus a ``fingerprint`` of the build and settings times 2⁴¹: a
/// client holding a page of another build (whose rows may be drawn differently) is reset.
///
/// Any other state gets an id of this host alone, from a random start in ``localIDs``: a state
/// read without a version, one changed by something other than a re-read (an action that
/// updates the table itself, a background update), and every state of a page without a clock.
/// Local ids lie above any clock id and below 2⁵³, so JavaScript reads them exactly; an id from
/// another instance or an earlier run is, but for a chance of about one in 2⁵², unknown here.
struct PageVersions {
    /// Where ids of one host start: above any clock id, and below 2⁵³ with room for 2³² states.
    static let localIDs: Range<Int> = (1 << 52)..<((1 << 53) - (1 << 32))
    /// Clock values that fit an id; beyond them a state gets a local id (2⁴¹ − 2⁴⁰ writes after a
    /// clock's random start, which is below 2⁴⁰).
    static let clockValues: Range<Int> = 0..<(1 << 41)

    /// Whether states read while the clock stood still take its version.
    let followsClock: Bool
    private let fingerprint: Int
    // Set between `beginRead` and `endRead`: states published meanwhile come from a re-read.
    private var isReading = false
    // The clock's value when the current re-read saw exactly one version.
    private var readVersion: Int?
    private var nextLocalID: Int
    // The last clock value used: values only grow, so no id is handed out twice.
    private var lastClockValue = -1

    /// Versions of a page with a clock that its states follow (`followsClock`), or not; clock ids
    /// carry `fingerprint` (see ``fingerprint(rowLimit:)``).
    init(followsClock: Bool, fingerprint: Int) {
        self.followsClock = followsClock
        self.fingerprint = fingerprint & 0x7FF
        nextLocalID = Int.random(in: Self.localIDs)
    }

    /// The id of the state at clock value `version`.
    static func clockID(_ version: Int, fingerprint: Int) -> Int {
        (fingerprint & 0x7FF) << 41 | version
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

    /// The version of the next state: the read's clock id when it fits, else a local id.
    mutating func next() -> Int {
        if isReading, followsClock, let readVersion, readVersion > lastClockValue, Self.clockValues.contains(readVersion) {
            lastClockValue = readVersion
            return Self.clockID(readVersion, fingerprint: fingerprint)
        }
        defer { nextLocalID += 1 }
        return nextLocalID
    }

    /// Eleven bits that differ, but for a chance of one in 2,048, between two builds of the server
    /// (the executable's size and modification time) or two row limits, which draw pages differently.
    static func fingerprint(rowLimit: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in executableIdentity + [UInt64(bitPattern: Int64(rowLimit))] {
            hash = (hash ^ value) &* 0x0000_0100_0000_01b3
            hash ^= hash >> 29
        }
        return Int(hash & 0x7FF)
    }

    // The running executable's size and modification time; empty where it cannot be read.
    private static let executableIdentity: [UInt64] = {
        #if os(Linux)
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return [] }
        return [UInt64(status.st_size), UInt64(status.st_mtim.tv_sec), UInt64(status.st_mtim.tv_nsec)]
        #else
        return []
        #endif
    }()
}
