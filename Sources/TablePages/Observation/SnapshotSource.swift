import TableKit

/// A root whose data is read, with its version, by its page's host: the host observes
/// ``changeFeeds`` before the first read, so no change after that read is missed, and names each
/// state a read produced by the version that read saw. ``ObservedSource`` is the one kind.
package protocol SnapshotSource: TableRoot {
    /// Where the data's changes are announced.
    var changeFeeds: [ChangeFeed] { get }

    /// Reads the data and shows it; returns the version of exactly what it read, nil when the data
    /// has no version or a state of this process shows besides it.
    func readSnapshot() throws -> Int?
}
