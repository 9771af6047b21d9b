import Foundation

/// The figures of the write path's benchmark (`Benchmarks/writes.sh`): times measured around
/// writes, printed as `bench:` lines the script collects. Asserts nothing about them.
public struct WriteBenchmarkFigures: Sendable {
    /// Whether the benchmark was asked for (`BENCH_WRITES=1`): the suites that measure are off otherwise.
    public static let isEnabled = ProcessInfo.processInfo.environment["BENCH_WRITES"] != nil

    /// What was measured, for the lines.
    public let label: String

    /// Figures for `label` (e.g. "SQLite").
    public init(label: String) {
        self.label = label
    }

    /// Seconds `body` took.
    public static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Prints `count` operations done in `seconds` as a rate.
    public func rate(_ what: String, count: Int, seconds: Double) {
        print(String(format: "bench: %@ %@: %d in %.2f s = %.0f per second", label, what, count, seconds, Double(count) / seconds))
    }

    /// Prints one duration in milliseconds.
    public func duration(_ what: String, seconds: Double) {
        print(String(format: "bench: %@ %@: %.1f ms", label, what, seconds * 1000))
    }

    /// Prints the median and the 99th percentile of `samples` (seconds), in milliseconds.
    public func percentiles(_ what: String, samples: [Double]) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return }
        func at(_ fraction: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))] * 1000 }
        print(String(format: "bench: %@ %@: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d samples)", label, what, at(0.5), at(0.99), sorted.last! * 1000, sorted.count))
    }

    /// The time from each of `count` edits to its patch on a viewer's live stream at `path` of
    /// the server on `port`, in seconds: `edit` writes the marker it is given.
    public static func editToPatch(port: Int, stream path: String, count: Int = 200, edit: (_ step: Int, _ marker: String) async throws -> Void) async throws -> [Double] {
        let stream = try await TestConnection(port: port)
        _ = try await stream.openStream(path)
        _ = try await stream.readStream(until: { $0.contains("retry:") })
        var samples: [Double] = []
        for step in 0..<count {
            let marker = "edit-\(step)-mark"
            samples.append(try await seconds {
                try await edit(step, marker)
                _ = try await stream.readStream(until: { $0.contains(marker) }, timeout: .seconds(10))
            })
        }
        return samples
    }
}
