import HostileTextSupport
import PropertyBased
import TableKit
@testable import TablePages
import Testing

/// An item of the lists the properties draw: an id from a small range, so that lists share ids,
/// and a title that may change between reads.
private struct Entry: Identifiable, Sendable, Equatable {
    let id: Int
    let title: String
}

/// The row of an ``Entry``.
private final class EntryRow: ObservedRow<Entry> {
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.basic, CellContent(title: item.title)) }
}

@Suite("Observed sections: rows kept by identity")
struct ObservedSectionTests {
    /// A list of entries with distinct ids (a store's rows), in a random order, with random titles:
    /// each code names an id (its remainder by 12) and one of three titles.
    private static let entries = Gen.int(in: 0...35).array(of: 0...12).map { codes in
        var seen = Set<Int>()
        return codes.compactMap { code in seen.insert(code % 12).inserted ? Entry(id: code % 12, title: "t\(code / 12)") : nil }
    }

    /// A table over one observed section showing `entries`.
    private static func table(showing entries: [Entry]) -> (TableAdapter, ObservedSection<Entry>) {
        let section = ObservedSection<Entry>(id: "entries") { EntryRow(item: $0) }
        section.show(entries)
        return (TableAdapter(root: CascadingRootTableDelegate(childDelegates: [section])), section)
    }

    @Test func thePatchTurnsTheRowsBeforeIntoTheRowsAfterAndKeepsTheDelegatesOfSurvivingIDs() async {
        await propertyCheckFailingOnThrow(input: Self.entries, Self.entries) { before, after in
            let (table, section) = Self.table(showing: before)
            var sent: [Changeset] = []
            table.onChange = { sent.append($0) }
            let delegates = Dictionary(uniqueKeysWithValues: section.rows.map { ($0.item.id, ObjectIdentifier($0)) })

            section.show(after)
            table.reconcileData()

            // The delegates of ids read before and after are the same objects, holding the new item.
            for row in section.rows {
                if let kept = delegates[row.item.id] { #expect(ObjectIdentifier(row) == kept, "the row of \(row.item.id) was made again") }
            }
            #expect(section.rows.map(\.item) == after)

            // The patch, applied to the rows a client holds, gives the rows after, in order; every
            // row whose title changed is sent again.
            var client = before.map { "\($0.id)" }
            var replaced = Set<String>()
            for changeset in sent {
                for operation in changeset.operations {
                    switch operation {
                    case .deleteRow(let id):
                        client.removeAll { $0 == id.rawValue }
                    case .insertRow(let id, _, let placement):
                        client.insert(id.rawValue, at: Self.position(placement, in: client))
                        replaced.insert(id.rawValue)
                    case .moveRow(let id, _, let placement):
                        client.removeAll { $0 == id.rawValue }
                        client.insert(id.rawValue, at: Self.position(placement, in: client))
                    case .replaceRow(let id):
                        replaced.insert(id.rawValue)
                    case .updateSectionCounts, .replaceHeader:
                        break
                    default:
                        Issue.record("a row change sent \(operation)")
                    }
                }
            }
            #expect(client == after.map { "\($0.id)" })
            let retitled = after.filter { entry in before.contains { $0.id == entry.id && $0.title != entry.title } }
            #expect(Set(retitled.map { "\($0.id)" }).isSubset(of: replaced))
        }
    }

    @Test func itemsSharingAnIDDoNotShareADelegate() {
        let (_, section) = Self.table(showing: [Entry(id: 1, title: "a")])
        let first = section.rows[0]
        section.show([Entry(id: 1, title: "b"), Entry(id: 1, title: "c")])
        #expect(section.rows[0] === first && section.rows[1] !== first)
        #expect(section.rows.map(\.item.title) == ["b", "c"])
    }

    private static func position(_ placement: RowPlacement, in rows: [String]) -> Int {
        switch placement {
        case .start:
            return 0
        case .end:
            return rows.count
        case .after(let id), .before(let id):
            guard let neighbour = rows.firstIndex(of: id.rawValue) else {
                Issue.record("a row placed by \(id.rawValue), which the client does not hold")
                return rows.count
            }
            if case .after = placement { return neighbour + 1 }
            return neighbour
        }
    }
}
