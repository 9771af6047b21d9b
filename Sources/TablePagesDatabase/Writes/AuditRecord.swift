/// An ``AuditEntry`` as the audit trail keeps it: numbered, and tied to the other rows the same
/// write changed.
public struct AuditRecord: Sendable, Hashable {
    /// Its number: later entries have higher ones.
    public var id: Int64
    /// The same for every entry of one writer call (one transaction); what an undo undoes.
    public var writeID: String
    /// What was written.
    public var entry: AuditEntry

    /// A record by its parts.
    public init(id: Int64, writeID: String, entry: AuditEntry) {
        self.id = id
        self.writeID = writeID
        self.entry = entry
    }
}
