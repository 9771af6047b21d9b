import TableKit

/// A ``RowPager`` that also reads a page starting at a position in the section's order, so a client
/// can show the rows in the middle of a long section at once (`?_at=N`, a scrollbar dragged there)
/// instead of paging through every row before them.
///
///     struct OrderPager: PositionalRowPager {
///         func root(ofRowsIn section: SectionID, from position: Int, limit: Int) throws -> any TableRoot {
///             OrderPage(try store.orders(offset: position, limit: limit))
///         }
///     }
///
/// Implementation requirements: the rows of `section` whose position (counted from 0, in the
/// section's order) is `position` or more, at most `limit`, with the rows after them counted as
/// for ``RowPager/root(ofRowsIn:after:limit:)``; no rows (and none after) when `position` is past
/// the end. Finding the first row may read up to `position` rows, so keep it cheap (an index, a
/// covering index) and bounded (a query time limit). A page whose pager is not positional answers
/// `_at` from its live table, as far as that table holds the section's rows.
public protocol PositionalRowPager: RowPager {
    /// A delegate tree of the rows of `section` from `position` on, at most `limit`.
    func root(ofRowsIn section: SectionID, from position: Int, limit: Int) throws -> any TableRoot
}

extension PositionalRowPager {
    /// Default: the pager itself.
    public var positional: (any PositionalRowPager)? { self }
}
