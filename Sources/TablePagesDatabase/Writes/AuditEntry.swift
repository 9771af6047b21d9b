import Foundation
import TableStore

/// One row's change as the audit trail keeps it: who, when, how, which row, and its values
/// before and after (nil before an insert, nil after a delete).
public struct AuditEntry: Sendable, Hashable {
    /// What happened to the row.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// A new row (by insert or upsert).
        case insert
        /// Changed values (by update, upsert, or an insert that replaced the row).
        case update
        /// The row removed.
        case delete
    }

    /// When the write was made.
    public var time: Date
    /// Who made it, and how.
    public var author: WriteAuthor
    /// The table written.
    public var table: String
    /// The row's key after the write (before it, for a delete).
    public var key: RowKey
    /// What happened.
    public var action: Action
    /// The row's values before, by column; nil for an insert.
    public var old: [String: SQLValue]?
    /// The row's values after, by column; nil for a delete.
    public var new: [String: SQLValue]?
    /// The write this entry's write undid (``AuditRecord/writeID``); nil for a write of its own.
    public var undoes: String?

    /// An entry by its parts.
    public init(time: Date, author: WriteAuthor, table: String, key: RowKey, action: Action, old: [String: SQLValue]?, new: [String: SQLValue]?, undoes: String? = nil) {
        self.time = time
        self.author = author
        self.table = table
        self.key = key
        self.action = action
        self.old = old
        self.new = new
        self.undoes = undoes
    }
}
