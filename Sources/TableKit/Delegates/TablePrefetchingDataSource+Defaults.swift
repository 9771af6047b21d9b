extension TablePrefetchingDataSource {
    /// Does nothing.
    public func prefetchRows(at indexPaths: [TableIndexPath]) {}
    /// Does nothing.
    public func cancelPrefetchingForRows(at indexPaths: [TableIndexPath]) {}
}
