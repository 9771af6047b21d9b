extension DatabaseFacet {
    /// A facet worth adding to a page (Datasette's suggested facets): a column and what to count.
    struct Suggestion: Sendable, Hashable {
        /// The column, in the schema's spelling.
        var column: String
        /// What the facet would count.
        var kind: Kind = .column
    }
}
