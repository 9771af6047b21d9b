import TableKit

// Renders a 10,000-row page (three text fields per row) to HTML and to JSON with TableKit's
// byte writer, and to HTML with a naive String renderer as a same-run peer.
// Run with: swift run -c release RenderBenchmark

let rowCount = 10_000
let stopwatch = Stopwatch(runs: 50, warmUpRuns: 5)

let items = BenchmarkItem.make(count: rowCount)
let list = ListDataSource(models: items, title: "Items") { item, _ in TableCell(.subtitle, BenchmarkItemCell(item: item)) }
let table = TableView(root: list)
table.title = "Benchmark"
let renderer = TableRenderer(table: table, context: RenderContext(basePath: "/pages/benchmark"))
let naive = NaiveStringRenderer(table: table, basePath: "/pages/benchmark")

var buffer = OutputBuffer(capacity: 1 << 22)
var bytesWritten = 0

let html = stopwatch.measure {
    buffer.removeAll()
    renderer.renderPage(as: .html, into: &buffer)
    bytesWritten = buffer.count
}
let htmlBytes = bytesWritten

let json = stopwatch.measure {
    buffer.removeAll()
    renderer.renderPage(as: .json, into: &buffer)
    bytesWritten = buffer.count
}
let jsonBytes = bytesWritten

let peer = stopwatch.measure {
    bytesWritten = naive.renderPage().count
}
let peerBytes = bytesWritten

// The delegate walk alone (every row's record, nothing written), to show how the time splits
// between reading the delegate tree and writing bytes.
var checksum = 0
let walkOnly = stopwatch.measure {
    for row in 0..<rowCount {
        checksum &+= table.rowRecord(at: IndexPath(section: 0, row: row)).indentationLevel
    }
}

func format(_ value: Double) -> String {
    let hundredths = Int(value * 100 + 0.5)
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

func report(_ name: String, _ result: Stopwatch.Result, bytes: Int) {
    let padded = name + String(repeating: " ", count: max(0, 26 - name.count))
    print("\(padded) median \(format(result.medianMilliseconds)) ms   min \(format(result.minimumMilliseconds)) ms   \(bytes / 1024) KiB")
}

print("TableKit render benchmark: \(rowCount) rows x 3 text fields, \(stopwatch.runs) runs")
report("TableKit HTML", html, bytes: htmlBytes)
report("TableKit JSON", json, bytes: jsonBytes)
report("Naive String HTML (peer)", peer, bytes: peerBytes)
report("Delegate walk only", walkOnly, bytes: checksum)
print("Ratio naive / TableKit HTML (median): \(format(peer.medianMilliseconds / html.medianMilliseconds))x")
print("Ratio naive / TableKit JSON (median): \(format(peer.medianMilliseconds / json.medianMilliseconds))x")
