import CoreMetrics
import MicroHTTP
import Prometheus

/// The service's metrics, kept in a Prometheus registry through swift-metrics and served as
/// Prometheus text at `GET /metrics` by the ``Site`` given them. Without one, nothing is counted and
/// there is no `/metrics`.
///
///     let metrics = ServiceMetrics()
///     MetricsSystem.bootstrap(metrics.factory)       // optional: other libraries' metrics too
///     let site = Site(pages: pages, metrics: metrics)
///     var configuration = ServerConfiguration(port: 8080)
///     configuration.observer = metrics.serverObserver
///     store.metrics = metrics.store                  // with TablePagesDatabase: time a store's reads and writes
///
/// Use one per site: its gauges show the site that serves `/metrics`. It never reads the global
/// `MetricsSystem`, so it works the same whether or not that was bootstrapped.
public final class ServiceMetrics: Sendable {
    /// Where every series is kept, and what `/metrics` prints.
    public let registry: PrometheusCollectorRegistry
    /// Makes swift-metrics series in ``registry``, with histogram buckets suited to a fast server
    /// (from 100 µs). Bootstrap `MetricsSystem` with it to have other libraries' metrics in
    /// `/metrics` too.
    public let factory: PrometheusMetricsFactory
    /// Counts requests and open event streams: set it as ``/MicroHTTP/ServerConfiguration/observer``.
    public let serverObserver: any ServerObserver
    let live: LiveMetrics
    private let gauges: LiveGauges

    /// Histogram buckets in seconds for durations: most requests here take well under a millisecond,
    /// and Prometheus's default buckets start at 5 ms.
    public static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Metrics kept in `registry` (a new one by default).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        self.factory = factory
        serverObserver = RequestMetrics(factory: factory)
        live = LiveMetrics(factory: factory)
        gauges = LiveGauges(factory: factory)
    }

    /// `GET /metrics`: every series in Prometheus's text format, the gauges of `hosts` read now.
    func response(reading hosts: PageHosts) -> Response {
        gauges.read(hosts)
        var body: [UInt8] = []
        registry.emit(into: &body)
        var response = Response(status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], body: body)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
