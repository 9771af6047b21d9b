import MicroHTTP

/// A page request with its variant's live host, admitted to the host's lane: what every page
/// route's handler works with.
struct PageContext: Sendable {
    /// What the request names and asks for, parsed once.
    let page: PageRequest
    /// The live table of the variant the request names.
    let host: PageHost

    /// The page.
    var definition: PageDefinition { page.definition }
    /// Who the request acts for; nil when anonymous.
    var actor: Actor? { page.actor }
}
