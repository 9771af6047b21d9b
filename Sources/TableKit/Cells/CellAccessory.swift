/// The control or indicator shown at the trailing edge of a cell, as `UITableViewCell.AccessoryType`.
public enum CellAccessory: String, Hashable, Sendable {
    /// No accessory.
    case none
    /// A chevron: selecting the row leads somewhere.
    case disclosureIndicator
    /// A check mark: the row is chosen.
    case checkmark
    /// An information button.
    case detailButton
}
