import Testing
import TableKit

@Suite("Reconciling data changed elsewhere")
struct ReconcileDataTests {
    @Test("A row inserted in the middle is placed after its neighbour")
    func insertInMiddle() {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        harness.source.replaceSections([("s", ["a", "x", "b", "c"])])
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([.insertRow("x", section: "s", placement: .after("a"))])])
        #expect(harness.table.version == 1)
        #expect(harness.table.indexPath(forRowID: "c") == TableIndexPath(section: 0, row: 3))
    }

    @Test("A row that is gone is deleted")
    func delete() {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        harness.source.replaceSections([("s", ["a", "c"])])
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([.deleteRow("b")])])
    }

    @Test("A row that changed place in its section is the only one moved")
    func moveWithinSection() {
        let harness = TableHarness([("s", ["a", "b", "c", "d"])])
        harness.source.replaceSections([("s", ["a", "c", "d", "b"])])
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([.moveRow("b", section: "s", placement: .after("d"))])])
    }

    @Test("A row that changed section is moved there")
    func moveAcrossSections() {
        let harness = TableHarness([("s", ["a", "b"]), ("t", ["c"])])
        harness.source.replaceSections([("s", ["a"]), ("t", ["b", "c"])])
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([.moveRow("b", section: "t", placement: .start)])])
    }

    @Test("A row whose content changed is replaced, and no other row is sent")
    func contentChange() {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        harness.source.sections[0].rows[1].title = "Bee"
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([.replaceRow("b")])])
    }

    @Test("A row that moved and changed is moved, then replaced")
    func moveAndContentChange() {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        var moved = harness.source.sections[0].rows.remove(at: 1)
        moved.title = "Bee"
        harness.source.sections[0].rows.append(moved)
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([.moveRow("b", section: "s", placement: .after("c")), .replaceRow("b")])])
    }

    @Test("Unchanged data sends nothing and keeps the version")
    func unchanged() throws {
        let harness = TableHarness([("s", ["a", "b"]), ("t", [])])
        harness.table.reconcileData()
        #expect(harness.published.isEmpty)
        #expect(harness.table.version == 0)

        // After a batch that reported everything, there is nothing left to find.
        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows.remove(at: 0)
            harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
        }
        harness.table.reconcileData()
        #expect(harness.published.count == 1)
        #expect(harness.table.version == 1)
    }

    @Test("Sections inserted, deleted and moved become section operations")
    func sectionOperations() {
        let harness = TableHarness([("a", ["a1"]), ("b", ["b1"]), ("c", ["c1"]), ("d", ["d1"])])
        harness.source.replaceSections([("b", ["b1"]), ("n", ["n1"]), ("c", ["c1"]), ("a", ["a1"])])
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([
            .deleteSection("d"),
            .insertSection("n", placement: .after("b")),
            .moveSection("a", placement: .after("c")),
        ])])
    }

    @Test("A section whose header changed is replaced in place, or deleted and inserted when it also moved")
    func sectionContentChange() {
        let harness = TableHarness([("a", ["a1"]), ("b", ["b1"]), ("c", ["c1"])])
        harness.source.headers["b"] = "Bees"
        harness.table.reconcileData()
        #expect(harness.published.last == Changeset([.replaceSection("b")]))

        harness.source.headers["a"] = "Ants"
        harness.source.sections.swapAt(0, 2)
        harness.table.reconcileData()
        #expect(harness.published.last == Changeset([
            .deleteSection("a"),
            .moveSection("b", placement: .after("c")),
            .insertSection("a", placement: .after("b")),
        ]))
        harness.table.reconcileData()
        #expect(harness.published.count == 2)
    }

    @Test("Rows moving into a new section leave their old one; rows of a deleted section can move out")
    func rowsAcrossNewAndDeletedSections() {
        let harness = TableHarness([("s", ["a", "b"]), ("t", ["c", "d"])])
        harness.source.replaceSections([("s", ["a", "c"]), ("n", ["b"])])
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([
            .deleteSection("t"),
            .deleteRow("b"),
            .insertSection("n", placement: .after("s")),
            .insertRow("c", section: "s", placement: .after("a")),
        ])])
    }

    @Test("A row leaving a section that is replaced in place leaves before the replace, so no id is shown twice")
    func rowsLeavingReplacedSection() {
        let harness = TableHarness([("s", ["a", "b", "c"]), ("t", ["d"])])
        harness.source.headers["s"] = "Changed"
        var moved = harness.source.sections[0].rows.remove(at: 2)
        moved.title = "Sea"
        harness.source.sections[1].rows.append(moved)
        harness.source.sections.insert((id: "n", rows: [harness.source.sections[0].rows.remove(at: 1)]), at: 0)
        harness.table.reconcileData()
        #expect(harness.published == [Changeset([
            .deleteRow("b"),
            .insertSection("n", placement: .start),
            .moveRow("c", section: "t", placement: .after("d")),
            .replaceRow("c"),
            .replaceSection("s"),
        ])])
    }

    @Test("Duplicate identifiers cannot be matched, so subscribers get a reset")
    func duplicateIDs() {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.source.replaceSections([("s", ["a", "b", "a"])])
        harness.table.reconcileData()
        #expect(harness.published == [.reset])
        #expect(harness.table.version == 1)
    }

    @Test("Inside a batch, the diff is taken at the outermost commit and covers the batch's own updates")
    func insideBatch() throws {
        let harness = TableHarness([("s", ["a", "b", "c"])])
        try harness.table.performBatchUpdates {
            harness.source.sections[0].rows.remove(at: 0)
            harness.table.deleteRows(at: [TableIndexPath(section: 0, row: 0)])
            harness.source.sections[0].rows.append(FixtureRow(id: "d", title: "D"))
            harness.table.reconcileData()
            #expect(harness.published.isEmpty)
        }
        #expect(harness.published == [Changeset([.deleteRow("a"), .insertRow("d", section: "s", placement: .after("c"))])])
    }

    @Test("A delegate can reconcile through its table context")
    func throughContext() {
        let harness = TableHarness([("s", ["a", "b"])])
        harness.source.replaceSections([("s", ["b", "a"])])
        harness.source.tableContext?.reconcileData()
        #expect(harness.published.count == 1)
        #expect(harness.table.rowID(at: TableIndexPath(section: 0, row: 0)) == "b")
    }

    @Test("Replacing a list's models and reconciling sends only what changed")
    func listModels() {
        let list = ListDataSource(models: (1...5).map(Item.init)) { item, _ in
            TableCell(.basic, CellContent(title: "Item \(item.id)"))
        }
        let table = TableAdapter(root: list)
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        list.models = [1, 6, 2, 4, 3].map(Item.init)
        table.reconcileData()
        #expect(published == [Changeset([
            .deleteRow("5"),
            .insertRow("6", section: "all", placement: .after("1")),
            .moveRow("3", section: "all", placement: .after("4")),
        ])])
    }

    @Test("Regrouped models move between sections and open new ones")
    func sectionedModels() {
        struct Pet: Identifiable {
            let id: String
            let species: String
        }
        let source = SectionsDataSource(models: [Pet(id: "rex", species: "Dog"), Pet(id: "tom", species: "Cat")],
                                        sectionKey: \.species) { pet, _ in TableCell(.basic, CellContent(title: pet.id)) }
        let table = TableAdapter(root: source)
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        source.models = [Pet(id: "rex", species: "Dog"), Pet(id: "tom", species: "Dog"), Pet(id: "nemo", species: "Fish")]
        table.reconcileData()
        #expect(published == [Changeset([
            .deleteSection("Cat"),
            .insertSection("Fish", placement: .after("Dog")),
            .insertRow("tom", section: "Dog", placement: .after("rex")),
        ])])
    }

    @Test("Random changes: every changeset turns the client's copy into the new data, precisely")
    func randomChanges() throws {
        for seed in UInt64(1)...200 {
            var random = SeededGenerator(seed: seed)
            let harness = TableHarness(Self.randomSections(using: &random))
            for _ in 0..<5 {
                try Self.checkRandomChange(harness, using: &random, seed: seed)
            }
        }
    }

    @Test("Ten thousand rows with one percent changed give a precise changeset")
    func tenThousandRows() throws {
        let ids = (0..<10_000).map { "r\($0)" }
        let harness = TableHarness([("s", ids)])
        let before = ClientDocument(harness.source.sections)
        var rows = harness.source.sections[0].rows
        for index in stride(from: 9_900, to: 0, by: -400) {
            rows.remove(at: index)  // 25 deletes
        }
        for index in stride(from: 50, to: 9_000, by: 400) {
            rows[index].title += "!"  // 23 content changes
        }
        for index in stride(from: 100, to: 9_000, by: 400) {
            let row = rows.remove(at: index)
            rows.insert(row, at: index - 37)  // 23 moves
        }
        for index in stride(from: 300, to: 9_000, by: 400) {
            rows.insert(FixtureRow(id: "n\(index)", title: "new"), at: index)  // 22 inserts
        }
        harness.source.sections[0].rows = rows
        harness.table.reconcileData()

        let changeset = try #require(harness.published.first)
        var client = before
        _ = try client.apply(changeset, server: ClientDocument(harness.source.sections))
        #expect(client == ClientDocument(harness.source.sections))
        let kinds = changeset.operations.map { "\($0)".prefix(while: { $0 != "(" }) }
        #expect(kinds.filter { $0 == "deleteRow" }.count == 25)
        #expect(kinds.filter { $0 == "insertRow" }.count == 22)
        #expect(kinds.filter { $0 == "moveRow" }.count == 23)
        #expect(kinds.filter { $0 == "replaceRow" }.count == 23)
    }

    // MARK: - Random changes

    static let rowPool = (0..<30).map { "r\($0)" }
    static let sectionPool = (0..<6).map { "s\($0)" }

    static func randomSections(using random: inout SeededGenerator) -> [(String, [String])] {
        var rows = rowPool.shuffled(using: &random)[...]
        return sectionPool.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)).map { id in
            let count = min(rows.count, Int.random(in: 0...6, using: &random))
            defer { rows = rows.dropFirst(count) }
            return (id, Array(rows.prefix(count)))
        }
    }

    /// Changes the data as another writer might, without telling the table, reconciles, and
    /// checks the changeset against a client's copy of the table.
    static func checkRandomChange(_ harness: TableHarness, using random: inout SeededGenerator, seed: UInt64) throws {
        let source = harness.source
        let before = ClientDocument(source.sections)
        let titlesBefore = titles(source)
        let headersBefore = headers(source)
        let version = harness.table.version
        let published = harness.published.count

        for _ in 0..<Int.random(in: 0...6, using: &random) {
            mutate(source, using: &random)
        }
        harness.table.reconcileData()

        let after = ClientDocument(source.sections)
        let titlesAfter = titles(source)
        let changedRows = Set(titlesAfter.keys.filter { id in titlesBefore[id].map { $0 != titlesAfter[id] } ?? false })
        let headersAfter = headers(source)
        let changedSections = Set(headersAfter.keys.filter { id in headersBefore[id].map { $0 != headersAfter[id] } ?? false })
        let changesets = harness.published.dropFirst(published)
        guard let changeset = changesets.first else {
            #expect(before == after && changedRows.isEmpty && changedSections.isEmpty, "seed \(seed): a change was missed")
            #expect(harness.table.version == version)
            return
        }
        #expect(changesets.count == 1, "seed \(seed)")
        #expect(harness.table.version == version + 1, "seed \(seed)")
        #expect(!changeset.operations.contains(.reset), "seed \(seed)")
        var client = before
        let received: (fresh: Set<String>, replaced: Set<String>)
        do {
            received = try client.apply(changeset, server: after)
        } catch {
            Issue.record("seed \(seed): \(error) applying \(changeset.operations) to \(before) for \(after)")
            return
        }
        #expect(client == after, "seed \(seed): \(before) + \(changeset.operations) gave \(client), not \(after)")
        #expect(received.replaced.isSubset(of: changedRows), "seed \(seed): an unchanged row was replaced")
        #expect(changedRows.subtracting(received.fresh).isSubset(of: received.replaced), "seed \(seed): a changed row was not sent")
        let resent = Set(changeset.operations.compactMap { operation -> String? in
            switch operation {
            case .insertSection(let id, _), .replaceSection(let id): id.rawValue
            default: nil
            }
        })
        #expect(changedSections.isSubset(of: resent), "seed \(seed): a changed section was not sent")
        for (section, content) in source.sections.enumerated() {
            for (row, id) in content.rows.map(\.id).enumerated() {
                #expect(harness.table.indexPath(forRowID: RowID(id)) == TableIndexPath(section: section, row: row))
            }
        }
    }

    static func mutate(_ source: FixtureDataSource, using random: inout SeededGenerator) {
        let usedRows = Set(source.sections.flatMap { $0.rows.map(\.id) })
        let unusedRows = rowPool.filter { !usedRows.contains($0) }
        let unusedSections = sectionPool.filter { id in !source.sections.contains { $0.id == id } }
        let rowPaths = source.sections.indices.flatMap { section in
            source.sections[section].rows.indices.map { TableIndexPath(section: section, row: $0) }
        }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            guard !source.sections.isEmpty, let id = unusedRows.randomElement(using: &random) else { return }
            let section = Int.random(in: source.sections.indices, using: &random)
            let row = Int.random(in: 0...source.sections[section].rows.count, using: &random)
            source.sections[section].rows.insert(FixtureRow(id: id, title: id.uppercased()), at: row)
        case 1:
            guard let path = rowPaths.randomElement(using: &random) else { return }
            source.sections[path.section].rows.remove(at: path.row)
        case 2:
            guard let path = rowPaths.randomElement(using: &random) else { return }
            let moved = source.sections[path.section].rows.remove(at: path.row)
            let section = Int.random(in: source.sections.indices, using: &random)
            let row = Int.random(in: 0...source.sections[section].rows.count, using: &random)
            source.sections[section].rows.insert(moved, at: row)
        case 3:
            guard let path = rowPaths.randomElement(using: &random) else { return }
            source.sections[path.section].rows[path.row].title += "!"
        case 4:
            guard let id = unusedSections.randomElement(using: &random) else { return }
            let rows = unusedRows.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))
            let section = Int.random(in: 0...source.sections.count, using: &random)
            source.sections.insert((id: id, rows: rows.map { FixtureRow(id: $0, title: $0.uppercased()) }), at: section)
        case 5:
            guard !source.sections.isEmpty else { return }
            source.sections.remove(at: Int.random(in: source.sections.indices, using: &random))
        case 6:
            guard !source.sections.isEmpty else { return }
            let moved = source.sections.remove(at: Int.random(in: source.sections.indices, using: &random))
            source.sections.insert(moved, at: Int.random(in: 0...source.sections.count, using: &random))
        default:
            guard let section = source.sections.randomElement(using: &random) else { return }
            source.headers[section.id, default: section.id] += "*"
        }
    }

    static func titles(_ source: FixtureDataSource) -> [String: String] {
        Dictionary(uniqueKeysWithValues: source.sections.flatMap { $0.rows.map { ($0.id, $0.title) } })
    }

    static func headers(_ source: FixtureDataSource) -> [String: String] {
        Dictionary(uniqueKeysWithValues: source.sections.map { ($0.id, source.headers[$0.id] ?? $0.id) })
    }
}
