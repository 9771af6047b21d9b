/// The output format of a ``TableRenderer``.
public enum RenderFormat: Hashable, Sendable {
    /// Semantic, accessible HTML that works without JavaScript.
    case html
    /// The JSON document described on ``TableRenderer``.
    case json
}
