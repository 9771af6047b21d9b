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

        if options.isWriteSequence { runWrites(client, options: options) }

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

    static let sequenceGoalMilliseconds = 100.0

    /// The sequence of writes (--writes, --action-port): sends them, reports the delays, exits.
    static func runWrites(_ client: FanoutClient, options: Options) -> Never {
        let count = options.writes ?? 1
        let actionPort = options.actionPort ?? options.port
        let subscribed = client.openCount
        print("writes: \(count) x POST /pages/\(options.page)/rows/\(options.row)/select to 127.0.0.1:\(actionPort),"
            + " subscribers on 127.0.0.1:\(options.port); the next once all patches are in, >= \(fixed(options.interval, 0)) ms apart;"
            + " load average \(loadAverages())")
        let cpuBefore = options.pid.flatMap(cpuMilliseconds(of:))
        let start = monotonicNanoseconds()
        client.runWrites(count: count, interval: options.interval, timeout: options.timeout)
        let elapsed = milliseconds(monotonicNanoseconds() - start) / 1000
        let cpuAfter = options.pid.flatMap(cpuMilliseconds(of:))

        let width = client.subscribers.count
        var pairs: [Double] = []
        var slowest: [Double] = []  // per write, its slowest subscriber (of those that got it)
        var fastest: [Double] = []  // per write, its fastest subscriber
        var answers: [Double] = []  // per write, the POST's response time
        var statuses: [String: Int] = [:]
        var missedPairs = 0
        var writesComplete = 0
        var stillOpen = 0
        for index in 0..<width where client.subscribers[index].phase == .ready { stillOpen += 1 }
        for write in 0..<client.writeSentAts.count {
            let sentAt = client.writeSentAts[write]
            let status = client.writeFailures[write].map { "failed: \($0)" } ?? client.writeStatusLines[write] ?? "no response"
            statuses[status, default: 0] += 1
            if sentAt != 0, let answeredAt = client.writeAnsweredAts[write], answeredAt >= sentAt {
                answers.append(milliseconds(answeredAt - sentAt))
            }
            var delays: [Double] = []
            for index in 0..<width where client.subscribers[index].wasReady {
                let arrival = client.arrivals[write * width + index]
                if sentAt != 0, arrival >= sentAt, arrival != 0 {
                    delays.append(milliseconds(arrival - sentAt))
                } else {
                    missedPairs += 1
                }
            }
            if delays.count == subscribed { writesComplete += 1 }
            if let high = delays.max(), let low = delays.min() {
                slowest.append(high)
                fastest.append(low)
            }
            pairs += delays
        }
        pairs.sort()
        slowest.sort()
        fastest.sort()
        answers.sort()
        func line(_ values: [Double]) -> String {
            guard !values.isEmpty else { return "n/a" }
            let figures = [
                ("min", values[0]), ("p50", percentile(values, 0.50)), ("p90", percentile(values, 0.90)),
                ("p99", percentile(values, 0.99)), ("max", values[values.count - 1]),
            ]
            return figures.map { "\($0.0) \(fixed($0.1))" }.joined(separator: "  ")
        }
        let expected = client.writeSentAts.count * client.subscribers.filter(\.wasReady).count
        print("sent: \(client.writeSentAts.count) writes in \(fixed(elapsed, 2)) s; responses: "
            + statuses.sorted { $0.value > $1.value }.map { "\($0.value) x \($0.key)" }.joined(separator: ", "))
        print("received: \(pairs.count)/\(expected) (write, subscriber) pairs, \(missedPairs) missed;"
            + " \(writesComplete)/\(count) writes reached all \(subscribed) subscribers; \(stillOpen) still open")
        if client.extraPatches > 0 || client.strayPatches > 0 || client.resetEvents > 0 {
            print("warning: \(client.extraPatches) extra patches (a second one in a write's window), \(client.strayPatches) before the first write, \(client.resetEvents) `event: reset`")
        }
        if client.closedAfterReady > 0 {
            print("closed: \(client.closedAfterReady) subscriptions were closed by the server after subscribing")
            reportFailures(client)
        }
        print("POST answered (action instance, after COMMIT) ms:   \(line(answers))")
        print("delay ms, all pairs:                                \(line(pairs))")
        print("delay ms, per write, slowest subscriber:            \(line(slowest))")
        print("delay ms, per write, fastest subscriber:            \(line(fastest))")
        if let cpuBefore, let cpuAfter, !pairs.isEmpty {
            let used = cpuAfter - cpuBefore
            print("subscribers' server CPU for the writes: \(fixed(used, 0)) ms (\(fixed(used * 1000 / Double(pairs.count), 1)) µs per patch delivered; clock ticks of 10 ms)")
        }
        print("client: load average \(loadAverages())")
        let p50Text = pairs.isEmpty ? "n/a" : "\(fixed(percentile(pairs, 0.50))) ms"
        let p99Text = pairs.isEmpty ? "n/a" : "\(fixed(percentile(pairs, 0.99))) ms"
        let slowestText = slowest.isEmpty ? "n/a" : "\(fixed(percentile(slowest, 0.99))) ms"
        print("scaleout: \(pairs.count)/\(expected) received, p50 \(p50Text), p99 \(p99Text), p99 of per-write slowest \(slowestText)"
            + " (goal: p99 <= \(fixed(sequenceGoalMilliseconds, 0)) ms)")
        let allAnswered = client.writeFailures.allSatisfy { $0 == nil }
            && client.writeStatusLines.allSatisfy { $0?.hasPrefix("HTTP/1.1 2") == true || $0?.hasPrefix("HTTP/1.1 3") == true }
        exit(missedPairs == 0 && !pairs.isEmpty && allAnswered ? 0 : 1)
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
