/// A ``ReloadableDataSource`` whose whole state — every section, row and header it shows — comes
/// from its source as of its last read, and from nothing of this process alone: no cache filled
/// here, no result of a background task, no change made only through the table.
///
/// When its page's ``ChangeFeed`` has a clock, such a page names each state it reads by the clock's
/// version, the same on every instance that serves the data and across restarts, so a client that
/// reconnects elsewhere with `Last-Event-ID` is replayed instead of reset (see ``ChangeFeed/clock``).
///
///     final class TodoRoot: CascadingRootTableDelegate, VersionedDataSource {
///         func reloadFromSource() throws { items.show(try list.todos()) }
///     }
///
/// Implementation requirements: read everything the table shows in ``ReloadableDataSource/reloadFromSource()``
/// (and in the page's factory), not later as the table asks; two instances that read the same
/// version must answer alike. A root whose rows also show what this instance did (the gallery's
/// thumbnails, made and cached by each instance) is a plain ``ReloadableDataSource``: its states get
/// ids of their host.
public protocol VersionedDataSource: ReloadableDataSource {}
