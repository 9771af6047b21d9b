extension PageContract {
    /// The Server-Sent Events names of the event stream.
    public enum PatchEvent: String, Sendable, CaseIterable {
        /// One committed batch of changes: `{"version":N,"ops":[…]}`.
        case patch
        /// The client must refetch the page, then subscribe again from its version.
        case reset
    }

    /// The `op` of each operation in a patch (see ``TableRenderer/renderPatch(_:version:includeHTML:into:)``).
    public enum PatchOperation: String, Sendable, CaseIterable {
        /// A row was inserted.
        case insert
        /// A row was deleted.
        case delete
        /// A row's content changed.
        case replace
        /// A row moved.
        case move
        /// A section was inserted.
        case insertSection = "insert-section"
        /// A section was deleted.
        case deleteSection = "delete-section"
        /// A section's content changed.
        case replaceSection = "replace-section"
        /// A section moved.
        case moveSection = "move-section"
        /// The table's header view changed (``Changeset/Operation/replaceHeader``).
        case replaceHeader = "replace-header"
        /// A section's row count and `next` link changed (``Changeset/Operation/updateSectionCounts(_:)``).
        case sectionNext = "section-next"
        /// Refetch the page.
        case reset
    }
}
