/// A query the operator names in the configuration file (``SiteConfiguration/queries``): its own
/// page at `/-/queries/{name}` (HTML, JSON, CSV), listed on the index, whose named parameters
/// (`:name`) are form fields. Every reader may run it, whatever `--sql` says: its SQL is the
/// operator's, and it runs read-only as the SQL page's does.
public struct CannedQuery: Sendable, Equatable {
    /// The name in its URL.
    public var name: String
    /// The page's title; the name when the file gives none.
    public var title: String
    /// A sentence for the index and the page.
    public var description: String?
    /// The SQL, with named parameters.
    public var sql: String

    /// A query named `name`.
    public init(name: String, title: String? = nil, description: String? = nil, sql: String) {
        self.name = name
        self.title = title ?? name
        self.description = description
        self.sql = sql
    }

    static let keys = ["title", "description", "sql"]
}
