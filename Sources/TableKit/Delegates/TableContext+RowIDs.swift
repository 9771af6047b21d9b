extension TableContext {
    /// Reloads the rows with these identifiers; unknown identifiers are ignored.
    ///
    ///     context.reloadRows(withIDs: ["todo-17"])
    public func reloadRows(withIDs ids: [RowID]) {
        reloadRows(at: ids.compactMap(indexPath(forRowID:)))
    }
}
