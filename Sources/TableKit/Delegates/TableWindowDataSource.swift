/// A data source that holds only the first rows of its sections — a window onto data too large to
/// hold, such as a database table of a million rows — and leaves the rows after the window to be
/// fetched page by page.
///
/// The renderer counts the rows after the window as rows still to come: a page render ends the
/// section with a `next` link whose `data-remaining` sizes the client's placeholder, and the JSON
/// `rowCount` includes them.
///
///     final class Recent: ListDataSource<Event>, TableWindowDataSource {
///         var total = 1_000_000
///         func numberOfRowsAfterWindow(inSection section: Int) -> Int { total - models.count }
///     }
///
/// Implementation requirements: the count may be an estimate and must not be negative. Rendering
/// may ask `estimatedHeightForRow(at:)` and `heightForRow(at:)` for the index path just past the
/// window, so answer those without indexing into the held rows. Serving the rows after the window
/// is up to the service (TablePages asks its `RowPagingSource`).
public protocol TableWindowDataSource {
    /// How many rows of `section` follow the rows the data source holds.
    func numberOfRowsAfterWindow(inSection section: Int) -> Int
}
