import MicroHTTP

/// What a page request names, resolved once per request (``PageRequests/resolve(_:for:actor:)``):
/// the page, who asks (once they may read it, or write it for a write), and the variant its query
/// selects or why it selects none. Handed from a route's first step to its second, and from the
/// middleware to the handlers, so nothing of it is looked up again.
struct PageRequest: Sendable {
    /// The page.
    let definition: PageDefinition
    /// Who the request acts for; nil when anonymous.
    let actor: Actor?
    /// The variant the query selects, or the message saying why it selects none.
    let variant: Result<PageVariant, PageDefinition.VariantError>
}
