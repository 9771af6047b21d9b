import Testing
import TableKit

@Suite("TmpBench")
struct TmpBench {
    @Test func coverage() throws {
        var counts: [String: Int] = [:]
        for seed in UInt64(1)...200 {
            var random = SeededGenerator(seed: seed)
            let harness = TableHarness(ReconcileDataTests.randomSections(using: &random))
            for _ in 0..<3 {
                try ReconcileDataTests.checkRandomChange(harness, using: &random, seed: seed)
            }
            for c in harness.published { for op in c.operations { counts[String("\(op)".prefix(while: { $0 != "(" })), default: 0] += 1 } }
            counts["changesets", default: 0] += harness.published.count
        }
        print("COVERAGE", counts.sorted { $0.key < $1.key })
    }

    @Test func timing() throws {
        let clock = ContinuousClock()
        for model in ["fixture", "list"] {
        for _ in 0..<3 {
            let ids = (0..<10_000).map { "r\($0)" }
            struct M: Identifiable { let id: String; var title: String }
            var models = ids.map { M(id: $0, title: $0) }
            let list = ListDataSource(models: models) { m, _ in TableCell(.basic, CellContent(title: m.title)) }
            let harness = TableHarness([("s", ids)])
            let table = model == "list" ? TableView(root: list) : harness.table
            var rows = harness.source.sections[0].rows
            for index in stride(from: 9_900, to: 0, by: -400) { rows.remove(at: index); models.remove(at: index) }
            for index in stride(from: 50, to: 9_000, by: 400) { rows[index].title += "!"; models[index].title += "!" }
            for index in stride(from: 100, to: 9_000, by: 400) {
                let row = rows.remove(at: index); rows.insert(row, at: index - 37)
                let m = models.remove(at: index); models.insert(m, at: index - 37)
            }
            for index in stride(from: 300, to: 9_000, by: 400) {
                rows.insert(FixtureRow(id: "n\(index)", title: "new"), at: index)
                models.insert(M(id: "n\(index)", title: "new"), at: index)
            }
            harness.source.sections[0].rows = rows
            list.models = models
            var ops = 0
            table.onChange = { ops = $0.operations.count }
            let changed = clock.measure { table.reconcileData() }
            let got = ops
            let again = clock.measure { table.reconcileData() }
            let unchanged = clock.measure { table.reloadData() }
            ops = got
            let (t1, t2) = (clock.measure { _ = table.indexPath(forRowID: "r1") }, 0)
            _ = (t1, t2)
            print("TIMING \(model) ops=\(ops) reconcile(1% changed)=\(changed) reconcile(nothing changed)=\(again) reloadData(no change, before)=\(unchanged)")
        }
        }
    }
}
