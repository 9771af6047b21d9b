/// An error raised by a ``TableAdapter`` action or batch update, with a message fit for people.
///
/// The HTTP layer maps these to status codes; none of them is a crash.
///
///     do { try table.deleteRow("todo-3") } catch let error as TableError { print(error.message) }
public enum TableError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No row has this identifier.
    case unknownRow(RowID)
    /// No section has this identifier.
    case unknownSection(SectionID)
    /// The row cannot be edited (or does not offer deletion).
    case notEditable(RowID)
    /// The row cannot be moved.
    case notMovable(RowID)
    /// The delegate vetoed the request.
    case vetoed(RowID)
    /// The row offers no action with this name.
    case noSuchAction(String, row: RowID)
    /// A batch update did not add up (UIKit's `NSInternalInconsistencyException`).
    /// Subscribers have been sent a reset.
    case inconsistentBatch(String)
    /// `endUpdates()` was called without a matching `beginUpdates()`.
    case unbalancedEndUpdates

    /// A sentence describing the error, safe to show to people.
    public var message: String {
        switch self {
        case .unknownRow(let id): "There is no row \u{201C}\(id)\u{201D}."
        case .unknownSection(let id): "There is no section \u{201C}\(id)\u{201D}."
        case .notEditable(let id): "Row \u{201C}\(id)\u{201D} cannot be edited."
        case .notMovable(let id): "Row \u{201C}\(id)\u{201D} cannot be moved."
        case .vetoed(let id): "The change to row \u{201C}\(id)\u{201D} was refused."
        case .noSuchAction(let name, let row): "Row \u{201C}\(row)\u{201D} has no action \u{201C}\(name)\u{201D}."
        case .inconsistentBatch(let reason): "Inconsistent batch update: \(reason)"
        case .unbalancedEndUpdates: "endUpdates() was called without beginUpdates()."
        }
    }

    /// The same as ``message``.
    public var description: String { message }
}
