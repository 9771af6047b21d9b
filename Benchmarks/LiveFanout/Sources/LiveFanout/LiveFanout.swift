import Glibc

/// Opens N Server-Sent Events subscribers on one page, sends one select, and reports how long each
/// subscriber took to receive the patch, and how much the server's memory grew per idle subscriber.
@main
struct LiveFanout {
    static let latencyGoalMilliseconds = 200.0
    static let memoryGoalKiB = 10.0

    static func main() {
        let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
        let fileLimit = raiseOpenFileLimit()
        if fileLimit < UInt64(options.subscribers) + 16 {
            printError("LiveFanout: warning: RLIMIT_NOFILE is \(fileLimit), fewer than \(options.subscribers) subscribers need")
        }
        print("target: http://127.0.0.1:\(options.port)/pages/\(options.page)/events, \(options.subscribers) subscribers in batches of \(options.batch); select row \(options.row)")
        let addresses = options.perAddress > 0 ? "from 127.0.0.2 on, \(options.perAddress) per address" : "from 127.0.0.1"
        print("client: RLIMIT_NOFILE \(fileLimit); subscribers connect \(addresses); load average \(loadAverages())")

        let rssBefore = options.pid.flatMap(residentKiB(of:))
        if let pid = options.pid, rssBefore == nil {
            printError("LiveFanout: cannot read VmRSS of pid \(pid); memory will not be reported")
        }

        let client = FanoutClient(options: options)
        let connectStart = monotonicNanoseconds()
        var start = 0
        while start < options.subscribers {
            let end = min(start + options.batch, options.subscribers)
            client.openBatch(start..<end, timeout: max(options.timeout, 5))
            start = end
        }
        let connectSeconds = milliseconds(monotonicNanoseconds() - connectStart) / 1000
        print("connected: \(client.readyCount)/\(options.subscribers) subscribed (HTTP/1.1 200 and `retry:`) in \(fixed(connectSeconds, 2)) s")
        reportFailures(client)

        client.idle(seconds: options.settle)
        let rssAfter = options.pid.flatMap(residentKiB(of:))
        let idleOpen = client.openCount
        print("idle: \(idleOpen) still open after \(options.settle) s")
        var perSubscriberKiB: Double?
        if let rssBefore, let rssAfter {
            print("server VmRSS: before \(fixed(Double(rssBefore) / 1024)) MiB, after \(idleOpen) subscribers idle \(fixed(Double(rssAfter) / 1024)) MiB")
            if idleOpen > 0 {
                let growth = Double(rssAfter - rssBefore) / Double(idleOpen)
                perSubscriberKiB = growth
                print("memory: \(fixed(growth, 2)) KiB per idle subscriber (goal <= \(fixed(memoryGoalKiB, 0)) KiB)")
            }
        }
        if client.patchesBeforeSelect > 0 {
            print("warning: \(client.patchesBeforeSelect) subscribers had `event: patch` before the select was sent")
        }

        let cpuBefore = options.pid.flatMap(cpuMilliseconds(of:))
        client.selectAndWait(timeout: options.timeout)
        let cpuAfter = options.pid.flatMap(cpuMilliseconds(of:))
        let sentAt = client.selectSentAt
        var line = "select: POST /pages/\(options.page)/rows/\(options.row)/select"
        if let status = client.selectStatusLine { line += " -> \(status)" }
        if let sentAt, let answeredAt = client.selectAnsweredAt, answeredAt >= sentAt {
            line += " in \(fixed(milliseconds(answeredAt - sentAt))) ms"
        }
        if let failure = client.selectFailure { line += " (\(failure))" }
        print(line)

        var latencies: [Double] = []
        if let sentAt {
            latencies = client.subscribers.compactMap { $0.patchAt.map { milliseconds($0 - sentAt) } }.sorted()
        }
        let received = latencies.count
        print("received: \(received)/\(options.subscribers) subscribers had `event: patch` within \(options.timeout) s"
            + " (\(client.subscribersWaiting) subscribed but still waiting, \(client.closedBeforePatch) closed before it)")
        if client.closedAfterReady > 0 {
            print("closed: \(client.closedAfterReady) subscriptions were closed by the server after subscribing")
            reportFailures(client)
        }
        if !latencies.isEmpty {
            let figures = [
                ("min", latencies[0]), ("p50", percentile(latencies, 0.50)), ("p90", percentile(latencies, 0.90)),
                ("p99", percentile(latencies, 0.99)), ("max", latencies[latencies.count - 1]),
            ]
            print("latency ms: " + figures.map { "\($0.0) \(fixed($0.1))" }.joined(separator: "  "))
        }
        if let cpuBefore, let cpuAfter, received > 0 {
            let used = cpuAfter - cpuBefore
            print("server CPU for the select and its fan-out: \(fixed(used, 0)) ms (\(fixed(used * 1000 / Double(received), 1)) µs per subscriber; clock ticks of 10 ms)")
        }
        let rssEnd = options.pid.flatMap(residentKiB(of:))
        if let rssEnd { print("server VmRSS after the fan-out: \(fixed(Double(rssEnd) / 1024)) MiB") }
        print("client: load average \(loadAverages())")

        let memoryText = perSubscriberKiB.map { "\(fixed($0)) KiB/subscriber" } ?? "n/a"
        let p50Text = latencies.isEmpty ? "n/a" : "\(fixed(percentile(latencies, 0.50))) ms"
        let p99Text = latencies.isEmpty ? "n/a" : "\(fixed(percentile(latencies, 0.99))) ms"
        let goals = "(goals: all, p99 <= \(fixed(latencyGoalMilliseconds, 0)) ms, <= \(fixed(memoryGoalKiB, 0)) KiB)"
        print("fanout: \(received)/\(options.subscribers) received, p50 \(p50Text), p99 \(p99Text), memory \(memoryText) \(goals)")
        exit(received == options.subscribers ? 0 : 1)
    }

    /// The nearest-rank percentile of ascending `values`.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let rank = Int((fraction * Double(values.count)).rounded(.up))
        return values[min(max(rank, 1), values.count) - 1]
    }

    static func reportFailures(_ client: FanoutClient) {
        for (reason, count) in client.failureSummary.prefix(10) {
            print("  failed: \(count) x \(reason)")
        }
    }
}
