extension TablePrefetchingDataSource {
    /// Does nothing.
    public func prefetchRows(at indexPaths: [IndexPath]) {}
    /// Does nothing.
    public func cancelPrefetchingForRows(at indexPaths: [IndexPath]) {}
}
