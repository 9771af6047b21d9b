import TablePages
import TableStore

extension ServiceMetrics {
    /// Times database reads and writes in ``/TablePages/ServiceMetrics/registry``: set it as each
    /// `Store.metrics`. Every value made from one ``/TablePages/ServiceMetrics`` shares its series.
    ///
    ///     store.metrics = metrics.store
    public var store: StoreMetrics {
        StoreMetrics(factory: factory)
    }
}
