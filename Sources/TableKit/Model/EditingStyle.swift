/// The editing control a row offers, as `UITableViewCell.EditingStyle`.
///
/// On the web, `.delete` renders a delete form (`DELETE {base}/rows/{row}`) and `.insert` an
/// add form that commits an insertion with the submitted values.
public enum EditingStyle: String, Hashable, Sendable {
    /// No editing control.
    case none
    /// The row can be deleted.
    case delete
    /// The row offers to insert a new row (an "Add item" row).
    case insert
}
