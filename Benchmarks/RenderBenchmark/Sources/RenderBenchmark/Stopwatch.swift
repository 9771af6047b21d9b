/// Runs a closure repeatedly and reports the median and minimum wall time in milliseconds.
struct Stopwatch {
    struct Result {
        var medianMilliseconds: Double
        var minimumMilliseconds: Double
    }

    let runs: Int
    let warmUpRuns: Int

    func measure(_ body: () -> Void) -> Result {
        for _ in 0..<warmUpRuns {
            body()
        }
        let clock = ContinuousClock()
        let samples = (0..<runs).map { _ in milliseconds(clock.measure(body)) }.sorted()
        return Result(medianMilliseconds: samples[samples.count / 2], minimumMilliseconds: samples[0])
    }

    private func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
