/// A named edit or swipe action a row offers, as `UIContextualAction` without the handler.
///
/// The handler is the delegate's ``TableDelegate/performAction(named:forRowAt:)``, so that an
/// action posted from a browser (`POST {base}/rows/{row}/actions/{name}`) reaches the same code.
///
///     [RowAction(name: "archive", title: "Archive"), RowAction(name: "delete", title: "Delete", style: .destructive)]
public struct RowAction: Hashable, Sendable {
    /// How an action is presented.
    public enum Style: String, Hashable, Sendable {
        /// A regular action.
        case normal
        /// An action that destroys data; rendered with a warning style.
        case destructive
    }

    /// The action's identifier, used in URLs; stable and URL-friendly.
    public var name: String
    /// The label shown to people.
    public var title: String
    /// The presentation style.
    public var style: Style

    /// Creates an action.
    public init(name: String, title: String, style: Style = .normal) {
        self.name = name
        self.title = title
        self.style = style
    }
}
