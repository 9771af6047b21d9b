import TableKit

// Renders a 10,000-row page (three text fields per row) to HTML and to JSON with TableKit's
// byte writer, and to HTML with a naive String renderer as a same-run peer.
// Run with: swift run -c release RenderBenchmark
// Pass `html`, `json`, `peer` or `walk` to run only that measurement (for `perf record`).

let rowCount = 10_000
let stopwatch = Stopwatch(runs: 50, warmUpRuns: 5)
let only = CommandLine.arguments.dropFirst().first

let items = BenchmarkItem.make(count: rowCount)
let list = ListDataSource(models: items, title: "Items") { item, _ in TableCell(.subtitle, BenchmarkItemCell(item: item)) }
let table = TableAdapter(root: list)
table.title = "Benchmark"
let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/benchmark"))
let naive = NaiveStringRenderer(table: table, basePath: "/pages/benchmark")

var buffer = OutputBuffer(capacity: 1 << 22)

/// Measures `body` unless another measurement was asked for; returns the result and the bytes
/// (or checksum) the last run reported.
func measure(_ name: String, _ body: () -> Int) -> (Stopwatch.Result, Int)? {
    guard only == nil || only == name else { return nil }
    var reported = 0
    let result = stopwatch.measure { reported = body() }
    return (result, reported)
}

let html = measure("html") {
    buffer.removeAll()
    renderer.renderPage(as: .html, into: &buffer)
    return buffer.count
}

let json = measure("json") {
    buffer.removeAll()
    renderer.renderPage(as: .json, into: &buffer)
    return buffer.count
}

let peer = measure("peer") { naive.renderPage().count }

// The delegate walk alone (every row's record, nothing written), to show how the time splits
// between reading the delegate tree and writing bytes.
let walkOnly = measure("walk") {
    var checksum = 0
    for row in 0..<rowCount {
        checksum &+= table.rowRecord(at: TableIndexPath(section: 0, row: row)).indentationLevel
    }
    return checksum
}

func format(_ value: Double) -> String {
    let hundredths = Int(value * 100 + 0.5)
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

func report(_ name: String, _ measurement: (Stopwatch.Result, Int)?) {
    guard let (result, bytes) = measurement else { return }
    let padded = name + String(repeating: " ", count: max(0, 26 - name.count))
    print("\(padded) median \(format(result.medianMilliseconds)) ms   min \(format(result.minimumMilliseconds)) ms   \(bytes / 1024) KiB")
}

func reportRatio(_ name: String, _ measurement: (Stopwatch.Result, Int)?) {
    guard let peer, let (result, _) = measurement else { return }
    print("Ratio naive / TableKit \(name) (median): \(format(peer.0.medianMilliseconds / result.medianMilliseconds))x")
}

print("TableKit render benchmark: \(rowCount) rows x 3 text fields, \(stopwatch.runs) runs")
report("TableKit HTML", html)
report("TableKit JSON", json)
report("Naive String HTML (peer)", peer)
report("Delegate walk only", walkOnly)
reportRatio("HTML", html)
reportRatio("JSON", json)
