extension TablePrefetchingDataSource {
    /// Default: does nothing.
    public func prefetchRows(at indexPaths: [TableIndexPath]) {}
    /// Default: does nothing.
    public func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) {}
}
