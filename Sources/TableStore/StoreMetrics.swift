import CoreMetrics

/// What a ``Store`` reports through swift-metrics when given one (``Store/metrics``): how long each
/// read and write took, from the call to its return (waiting for a connection included), as one
/// timer per operation. A Prometheus histogram's `_count` is then the number of reads or writes.
///
///     store.metrics = StoreMetrics(factory: PrometheusMetricsFactory(registry: registry))
public struct StoreMetrics: Sendable {
    /// The timer's label; its `operation` dimension is `read` or `write`.
    public static let durationLabel = "tablepages_store_operation_duration_seconds"

    let reads: CoreMetrics.Timer
    let writes: CoreMetrics.Timer

    /// Metrics made by `factory`. Stores given metrics from the same factory share their series.
    public init(factory: any MetricsFactory) {
        reads = CoreMetrics.Timer(label: Self.durationLabel, dimensions: [("operation", "read")], factory: factory)
        writes = CoreMetrics.Timer(label: Self.durationLabel, dimensions: [("operation", "write")], factory: factory)
    }

    /// Runs `body`, recording its duration with `timer` whether it returns or throws.
    func measure<T>(_ timer: CoreMetrics.Timer, _ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        defer { timer.recordNanoseconds(Int64((ContinuousClock.now - start) / .nanoseconds(1))) }
        return try body()
    }
}
