/// A page's root that reads its data again when it changes, below the public door
/// (``ObservedSource``, which is one): the host observes its changes before the first read, so no
/// change after that read is missed, and re-reads after each. A database's table pages and live
/// queries are others, inside the package.
package protocol RereadingSource: PageSource {
    /// Calls `observer` after every change to the data the root reads, until the function it
    /// returns is called (when the page's variant is dropped). Default: no changes.
    func observeChanges(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void
    /// Whether the host reads the data (``readFromSource()``) before the first render too and
    /// numbers the table's states by the versions it returns. Default: false, the root's
    /// factory read what it shows, and the host numbers its states itself.
    var readsVersionedSnapshots: Bool { get }
    /// Reads the data again and shows it, after a change was announced; returns the version of
    /// exactly what it read, or nil when the data has no version (or state of this process shows
    /// besides it). The host then compares the table with what it last sent and publishes the
    /// rows that differ: do not report updates from here.
    func readFromSource() throws -> Int?
}

extension RereadingSource {
    /// Default: no changes; the page's definition may name a feed instead.
    package func observeChanges(_ observer: @escaping @Sendable () -> Void) -> @Sendable () -> Void { {} }
    /// Default: false.
    package var readsVersionedSnapshots: Bool { false }
}
