/// Which form of a patch a subscriber receives.
public enum PatchFormat: Sendable {
    /// Ops carry each row's new HTML and its data: what the browser client applies.
    case html
    /// Like ``html`` with each row's HTML as a viewer who may not write sees it: without action
    /// controls (see ``/TableKit/RenderContext/showsControls``).
    case htmlWithoutControls
    /// Ops carry data only (`?format=json`), for scripts following the stream.
    case json
}
