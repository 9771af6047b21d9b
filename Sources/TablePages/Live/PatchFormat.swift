/// Which form of a patch a subscriber receives.
public enum PatchFormat: Sendable {
    /// Ops carry each row's new HTML and its data: what the browser client applies.
    case html
    /// Ops carry data only (`?format=json`), for scripts following the stream.
    case json
}
