/// Why a listening connection was given up: a heartbeat it should have delivered did not
/// arrive within the limit (see `ListenerHeartbeat`).
struct ListenerStalled: Error, CustomStringConvertible {
    /// How long the heartbeat was waited for.
    let limit: Duration

    var description: String {
        "the listening connection delivered no heartbeat within \(limit) (its server process stopped, or the network drops its packets); closing it and listening again, after which every page re-reads"
    }
}
