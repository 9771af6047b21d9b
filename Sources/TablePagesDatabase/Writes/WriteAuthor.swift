import TablePages

/// Who made a write and how: the actor (a signed-in browser or an access token) and the channel
/// the write came through. The audit trail keeps both, and an actor undoes only its own writes.
///
///     let author = WriteAuthor(actor: actor, channel: .browser)
public struct WriteAuthor: Sendable, Hashable {
    /// How a write reached the writer.
    public enum Channel: String, Sendable, Hashable, CaseIterable {
        /// The table's pages in a browser.
        case browser
        /// A script through Datasette's write API.
        case api
    }

    /// The actor's ``/TablePages/Actor/id``: what the audit trail keys an actor's writes by.
    public var actorID: String
    /// A name for people (a token's name, "signed-in browser").
    public var name: String
    /// How the write came.
    public var channel: Channel

    /// An author by its parts.
    public init(actorID: String, name: String, channel: Channel) {
        self.actorID = actorID
        self.name = name
        self.channel = channel
    }

    /// The request's actor, writing through `channel`.
    public init(actor: Actor, channel: Channel) {
        self.init(actorID: actor.id, name: actor.name, channel: channel)
    }
}
