import MicroHTTP

/// A page request with its variant's live host, admitted to the host's lane: what every page
/// route's handler works with.
struct PageContext: Sendable {
    /// The page.
    let definition: PageDefinition
    /// Who the request acts for; nil when anonymous.
    let actor: Actor?
    /// The live table of the variant the request names.
    let host: PageHost
}
