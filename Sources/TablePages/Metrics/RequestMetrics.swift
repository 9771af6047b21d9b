import CoreMetrics
import MicroHTTP
import Synchronization

/// The server's metrics: requests by method, route pattern and status, their durations, and the
/// event streams open now. Labels come only from bounded sets — the routes' patterns (never a
/// path), the methods HTTP defines, the statuses the server sends — so no client can make the
/// number of series grow.
final class RequestMetrics: ServerObserver {
    /// The label of a request no route answered.
    static let unmatchedRoute = "unmatched"
    /// The label of a method HTTP does not define.
    static let otherMethod = "other"
    /// The methods HTTP defines: an array, since comparing a few short strings is quicker than hashing one.
    static let knownMethods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    private struct SeriesKey: Hashable {
        let method: HTTPMethod
        let route: String?
        let status: Int

        // Hashes lengths, not text: this runs for every request, the keys are few, and comparing
        // a route with itself is quick (the router hands out the same string every time), while
        // hashing it byte by byte showed up in profiles. Equal keys still hash alike.
        func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(route?.utf8.count ?? -1)
            hasher.combine(method.rawValue.utf8.count)
        }
    }

    private struct Series: Sendable {
        let requests: Counter
        let duration: CoreMetrics.Timer
    }

    private let factory: any MetricsFactory
    private let series = Mutex<[SeriesKey: Series]>([:])
    private let openStreams: Meter

    init(factory: any MetricsFactory) {
        self.factory = factory
        openStreams = Meter(label: "tablepages_http_open_event_streams", dimensions: [], factory: factory)
    }

    func requestAnswered(method: HTTPMethod, route: String?, status: Int, duration: Duration) {
        let key = SeriesKey(method: Self.knownMethods.contains(method) ? method : HTTPMethod(rawValue: Self.otherMethod), route: route, status: status)
        let series = self.series.withLock { series in
            if let existing = series[key] { return existing }
            let made = make(key)
            series[key] = made
            return made
        }
        series.requests.increment()
        series.duration.recordNanoseconds(Int64(duration / .nanoseconds(1)))
    }

    func eventStreamOpened() {
        openStreams.increment()
    }

    func eventStreamClosed() {
        openStreams.decrement()
    }

    /// The series of `key`; the factory hands back the one it already has for the same labels.
    private func make(_ key: SeriesKey) -> Series {
        let method = ("method", key.method.rawValue)
        let route = ("route", key.route ?? Self.unmatchedRoute)
        return Series(
            requests: Counter(label: "tablepages_http_requests_total", dimensions: [method, route, ("status", String(key.status))], factory: factory),
            duration: CoreMetrics.Timer(label: Self.durationLabel, dimensions: [method, route], factory: factory)
        )
    }

    static let durationLabel = "tablepages_http_request_duration_seconds"
}
