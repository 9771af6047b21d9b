import TablePages

/// The editing of a database's tables as one ``/TablePages/SiteFeature``: the browser's forms
/// and writes (``DatabaseTableEditing``, under each writable table's page) and the audit trail's
/// page (``AuditPages``, at `/-/audit`), for the actors the site's access control lets write.
/// Writers that can write nothing and keep no trail (a database served read-only) add nothing.
/// Add it after the feature that serves the tables' pages.
///
///     let tables = try DatabaseTables(store: store, audit: audit)
///     let site = Site(title: "Shop", features: [tables, try DatabaseEditing(writers: tables.writers)])
public struct DatabaseEditing: SiteFeature {
    /// The writers of the tables.
    public let writers: TableWriters
    /// The most rows one paste writes (``DatabaseTableEditing/maxPastedRows``).
    public var maxPastedRows = DatabaseTableEditing.defaultMaxPastedRows
    /// The most rows of a referenced table a foreign key's editor lists (``DatabaseTableEditing/maxChoices``).
    public var maxChoices = DatabaseTableEditing.defaultMaxChoices
    private let tables: [String: DatabaseTableEditing.EditableTable]

    /// The editing of the tables `writers` can write; reads their columns' types and defaults,
    /// blocking its thread while it does.
    /// - Throws: the database's errors reading them.
    public init(writers: TableWriters) throws {
        self.writers = writers
        tables = try DatabaseTableEditing.editableTables(of: writers)
    }

    /// Adds the audit trail's page and the tables' editing routes, answered with the site's access control.
    public func add(to site: inout SiteBuilder) {
        let audit = AuditPages(writers: writers, siteTitle: site.title, accessControl: site.access, logger: site.logger)
        // With a trail, the database is writable: a table created while the site runs is edited too.
        var editing = tables.isEmpty && writers.audit == nil ? nil : DatabaseTableEditing(
            tables: tables, writers: writers, pages: site.livePages, access: site.access, siteTitle: site.title, logger: site.logger
        )
        editing?.maxPastedRows = maxPastedRows
        editing?.maxChoices = maxChoices
        site.addRoutes { [editing] router in
            audit?.register(on: &router)
            editing?.register(on: &router)
        }
    }
}
