/// How a page host answers for one section's rows after a row: with the bytes, rendered on the
/// host, or with the work that reads and renders them, to run on any database lane (what a
/// ``DetachedRowPagingSource`` root allows, so a variant's pages are read in parallel).
enum SectionRendering: Sendable {
    /// The section, rendered.
    case rendered([UInt8])
    /// Reads the page and renders it; blocks on the database, so it runs on a database lane.
    case detached(@Sendable () throws -> [UInt8])
}
