/// Who may read a page and who may write it: two rules over the request's actor (nil for an
/// anonymous client), checked after the site's own (see ``AccessSettings``).
///
///     PageDefinition(name: "notes", title: "Notes", access: .private) { … }
///     PageDefinition(name: "board", title: "Board", access: PageAccess(
///         read: { _ in true }, write: { $0?.tokenName == "editor" }
///     )) { … }
///
/// A write needs the site's consent first: an actor (unless anonymous writes are on) whose
/// ``Actor/mayWrite`` is true and whose ``Actor/pages`` include the page; ``write`` can only narrow
/// that. Refusals are 401 for an anonymous client (signing in may help: a browser's page says how)
/// and 403 for an actor, with the data unchanged. A page an actor may not read is 403 too, not
/// 404: the 401 an anonymous client gets already says the page exists, so a 404 would hide nothing.
public struct PageAccess: Sendable {
    /// Whether an actor (nil: anonymous) may read the page: see it in the index, open it, follow its stream.
    public let read: @Sendable (Actor?) -> Bool
    /// Whether an actor (nil: anonymous, when the site lets anonymous clients write) may change the page.
    public let write: @Sendable (Actor?) -> Bool

    /// Whether nobody may ever write the page (``everyoneReads``), whoever they are. A closure cannot
    /// say that of itself, so the rules say it: such a page offers no sign-in to its viewers, a write
    /// to it is refused with 403 even for an anonymous client (signing in would not help), and a site
    /// of only such pages prints no sign-in link when it starts.
    public let isReadOnly: Bool

    /// Creates rules from two closures; they run on the server's event threads, so they must not block.
    public init(read: @escaping @Sendable (Actor?) -> Bool, write: @escaping @Sendable (Actor?) -> Bool) {
        self.init(read: read, write: write, isReadOnly: false)
    }

    private init(read: @escaping @Sendable (Actor?) -> Bool, write: @escaping @Sendable (Actor?) -> Bool, isReadOnly: Bool) {
        self.read = read
        self.write = write
        self.isReadOnly = isReadOnly
    }

    /// The default: anyone reads; whoever the site lets write (signed-in actors, by default) writes.
    public static let signedInWrites = PageAccess(read: { _ in true }, write: { _ in true })

    /// A read-only page: anyone reads, nobody writes through the web (``isReadOnly``).
    public static let everyoneReads = PageAccess(read: { _ in true }, write: { _ in false }, isReadOnly: true)

    /// Only signed-in actors read and write, never anonymous clients (even with anonymous writes on).
    public static let `private` = PageAccess(read: { $0 != nil }, write: { $0 != nil })
}
