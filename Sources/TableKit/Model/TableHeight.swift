/// A row, header or footer height: a fixed number of CSS pixels, or sized by its content.
///
/// Mirrors `CGFloat` heights and `UITableView.automaticDimension`.
///
///     override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { .points(44) }
public enum TableHeight: Hashable, Sendable {
    /// Sized by its content (`UITableView.automaticDimension`).
    case automatic
    /// A fixed height in CSS pixels.
    case points(Double)

    /// The fixed height, or `nil` when the height is automatic or zero.
    ///
    /// A zero header or footer height means "not given", as UIKit treats 0 from
    /// `heightForHeaderInSection` in grouped tables.
    public var explicitPoints: Double? {
        if case .points(let value) = self, value > 0 { return value }
        return nil
    }
}
