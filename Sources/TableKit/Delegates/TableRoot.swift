/// Everything a ``TableAdapter`` asks of its root: data source, delegate and prefetching.
///
/// Typically a ``CascadingRootTableDelegate`` or a ``ListDataSource``/``SectionsDataSource``.
public typealias TableRoot = TableDataSource & TableDelegate & TablePrefetchingDataSource
