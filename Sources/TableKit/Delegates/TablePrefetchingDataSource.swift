/// Prefetching, as `UITableViewDataSourcePrefetching`: the browser reports rows about to come
/// into view so their data can be loaded ahead of the request for them.
///
/// Implementation requirements: both methods must return quickly; start work, do not wait for
/// it. Both have default implementations.
public protocol TablePrefetchingDataSource {
    /// Rows that will probably be requested soon (`prefetchRowsAt`).
    func prefetchRows(at indexPaths: [TableIndexPath])
    /// Rows no longer expected soon (`cancelPrefetchingForRowsAt`).
    func cancelPrefetchingForRows(at indexPaths: [TableIndexPath])
}
