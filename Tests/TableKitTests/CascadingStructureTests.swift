import Testing
import TableKit

@Suite("Cascading delegate structure")
struct CascadingStructureTests {
    @Test("Setting childDelegates re-indexes children and sets their parent")
    func reindexesChildren() {
        let root = CascadingRootTableDelegate()
        let first = CascadingBareTableDelegate(index: 5)
        let second = CascadingBareTableDelegate(index: 9)
        root.childDelegates = [first, second]
        #expect(first.index == 0 && second.index == 1)
        #expect(first.parentDelegate === root && second.parentDelegate === root)

        let third = CascadingBareTableDelegate()
        root.childDelegates = [third, first]
        #expect(third.index == 0 && first.index == 1)
        #expect(third.parentDelegate === root)
    }

    @Test("Children given at init are indexed and parented")
    func initialChildren() {
        let children = [CascadingBareTableDelegate(), CascadingBareTableDelegate(), CascadingBareTableDelegate()]
        let section = CascadingSectionTableDelegate(childDelegates: children)
        #expect(children.map(\.index) == [0, 1, 2])
        #expect(children.allSatisfy { $0.parentDelegate === section })
    }

    @Test("The parent link is weak")
    func weakParent() {
        let child = CascadingBareTableDelegate()
        do {
            let root = CascadingRootTableDelegate(childDelegates: [child])
            #expect(child.parentDelegate === root)
        }
        #expect(child.parentDelegate == nil)
    }

    @Test("prepare(table:) reaches every child and grandchild, and children added later")
    func prepareReachesEveryChild() {
        let rows = [CascadingBareTableDelegate(), CascadingBareTableDelegate()]
        let section = CascadingSectionTableDelegate(childDelegates: rows)
        let root = CascadingRootTableDelegate(childDelegates: [section])
        let table = TableAdapter(root: root)
        #expect([root, section, rows[0], rows[1]].allSatisfy { $0.tableContext === table })

        let late = CascadingBareTableDelegate()
        section.childDelegates.append(late)
        #expect(late.tableContext === table)
    }

    @Test("Estimated row height falls back to the child's estimate, then its height, then automatic")
    func estimatedRowHeightChain() {
        final class HeightOnly: CascadingBareTableDelegate {
            override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { .points(50) }
        }
        final class Both: CascadingBareTableDelegate {
            override func heightForRow(at indexPath: TableIndexPath) -> TableHeight { .points(50) }
            override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? { .points(40) }
        }
        let section = CascadingSectionTableDelegate(childDelegates: [Both(), HeightOnly(), CascadingBareTableDelegate()])
        #expect(section.estimatedHeightForRow(at: TableIndexPath(section: 0, row: 0)) == .points(40))
        #expect(section.estimatedHeightForRow(at: TableIndexPath(section: 0, row: 1)) == .points(50))
        #expect(section.estimatedHeightForRow(at: TableIndexPath(section: 0, row: 2)) == .automatic)
    }

    @Test("Estimated header and footer heights fall back to the child's height, then 0")
    func estimatedHeaderHeightChain() {
        final class HeaderHeight: CascadingSectionTableDelegate {
            override func heightForHeader(inSection section: Int) -> TableHeight { .points(28) }
        }
        let root = CascadingRootTableDelegate(childDelegates: [HeaderHeight(), CascadingSectionTableDelegate()])
        #expect(root.estimatedHeightForHeader(inSection: 0) == .points(28))
        #expect(root.estimatedHeightForHeader(inSection: 1) == .points(0))
        #expect(root.estimatedHeightForFooter(inSection: 1) == .points(0))
    }

    @Test("Section index titles are gathered from children and routed to the child that gave them")
    func sectionIndexTitles() {
        final class Indexed: CascadingSectionTableDelegate {
            let titles: [String]?
            init(_ titles: [String]?) { self.titles = titles; super.init() }
            override func sectionIndexTitles() -> [String]? { titles }
        }
        let root = CascadingRootTableDelegate(childDelegates: [Indexed(["A"]), Indexed(nil), Indexed(["C", "D"])])
        #expect(root.sectionIndexTitles() == ["A", "C", "D"])
        #expect(root.section(forSectionIndexTitle: "A", at: 0) == 0)
        #expect(root.section(forSectionIndexTitle: "D", at: 2) == 2)
        #expect(root.section(forSectionIndexTitle: "Z", at: 7) == 7)
        #expect(CascadingRootTableDelegate(childDelegates: [Indexed(nil)]).sectionIndexTitles() == nil)
    }

    @Test("Prefetching gives each child the paths of its section and drops paths out of range")
    func prefetchGrouping() {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let root = CascadingRootTableDelegate(childDelegates: children)
        let paths = [TableIndexPath(section: 0, row: 1), TableIndexPath(section: 1, row: 0), TableIndexPath(section: 0, row: 2), TableIndexPath(section: 5, row: 0)]
        root.prefetchRows(at: paths)
        #expect(children[0].calls == ["prefetchRows([[0, 1], [0, 2]])"])
        #expect(children[1].calls == ["prefetchRows([[1, 0]])"])
    }

    @Test("Overriding a method and calling super keeps routing to children")
    func subclassCallsSuper() throws {
        final class CountingRoot: CascadingRootTableDelegate {
            var selections = 0
            override func didSelectRow(at indexPath: TableIndexPath) throws {
                selections += 1
                try super.didSelectRow(at: indexPath)
            }
        }
        let child = RecordingDelegate()
        let root = CountingRoot(childDelegates: [child])
        try root.didSelectRow(at: TableIndexPath(section: 0, row: 3))
        #expect(root.selections == 1)
        #expect(child.calls == ["didSelectRow([0, 3])"])
    }
}
