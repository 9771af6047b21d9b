import MicroHTTP

/// What a page request names and asks for, resolved and parsed once per request
/// (``PageRequests/resolve(_:for:actor:definition:)``): the page, who asks (once they may read it,
/// or write it for a write), the variant its query selects, the format, the rows and how the
/// viewer sees the page. Handed from a route's first step to its work, and from the middleware to
/// the handlers, so nothing of it is looked up or parsed again.
struct PageRequest: Sendable {
    /// The page.
    let definition: PageDefinition
    /// Who the request acts for; nil when anonymous.
    let actor: Actor?
    /// The variant the query selects, or the message saying why it selects none.
    let variant: Result<PageVariant, PageDefinition.VariantError>
    /// Whether the client asked for JSON (``/MicroHTTP/Request/prefersJSON``).
    let json: Bool
    /// The rows the query asks for, or why it names none: reported by the routes that read rows.
    let window: Result<RowWindow, HTTPError>
    /// How the actor sees the page: what the bar says of their sign-in, and whether it has controls.
    let view: PageDocument.View

    /// This request with `variant` in place of the one its query selects.
    func selecting(_ variant: Result<PageVariant, PageDefinition.VariantError>) -> PageRequest {
        PageRequest(definition: definition, actor: actor, variant: variant, json: json, window: window, view: view)
    }
}
