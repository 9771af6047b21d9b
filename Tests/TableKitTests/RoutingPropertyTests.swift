import HostileTextSupport
import PropertyBased
import Testing
import TableKit

/// Routing as a property: every routed call, at any index path, reaches exactly the child the
/// hooks name, with its arguments unchanged, and nothing else.
@Suite("Routing through the hooks")
struct RoutingPropertyTests {
    static let indexPaths = Gen.int(in: -2...6).array(of: 2).map { TableIndexPath(section: $0[0], row: $0[1]) }

    @Test("Root and section delegates: every call at any index path reaches exactly the child at its position, or none and the default")
    func positionalRouting() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...4), Self.indexPaths) { count, indexPath in
            for mode in RoutingMode.allCases {
                for method in PropagationCase.allCases {
                    let children = (0..<count).map { _ in RecordingDelegate() }
                    let parent = mode.makeDelegate(children: children)
                    let position: Int? = switch (mode, method.isSectionCall) {
                    case (.root, _): indexPath.section
                    case (.section, false): indexPath.row
                    case (.section, true): nil
                    }
                    let target = position.flatMap { children.indices.contains($0) ? $0 : nil }
                    let result = method.invokeAt(parent, indexPath)
                    if let target {
                        #expect(result == method.implementedResult, "\(method.name) \(mode) \(indexPath)")
                        #expect(children[target].calls == [method.expectedCallAt(indexPath)], "\(method.name) \(mode) \(indexPath)")
                    } else if mode == .section && method.name == "numberOfRows" {
                        #expect(result == "\(count)")
                    } else {
                        #expect(result == method.resolve(method.defaultResult, at: indexPath), "\(method.name) \(mode) \(indexPath)")
                    }
                    for (position, child) in children.enumerated() where position != target {
                        #expect(child.calls.isEmpty, "\(method.name) \(mode) \(indexPath) reached child \(position)")
                    }
                }
            }
        }
    }

    @Test("Any tree: every call reaches exactly the leaf the hooks lead to; a hook that names none gives the default")
    func hookRouting() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...99).array(of: 1...24), Self.indexPaths) { script, indexPath in
            for method in PropagationCase.allCases {
                let tree = RoutingTree(script: script)
                let result = method.invokeAt(tree.root, indexPath)
                let destination = tree.destination(of: method, at: indexPath)
                var reached: RecordingDelegate?
                switch destination {
                case .nowhere:
                    #expect(result == method.resolve(method.defaultResult, at: indexPath), "\(method.name) \(indexPath)")
                case .deadEnd:
                    #expect(result == method.resolve(method.unimplementedResult, at: indexPath), "\(method.name) \(indexPath)")
                case .leaf(let leaf):
                    reached = leaf
                    #expect(result == method.implementedResult, "\(method.name) \(indexPath)")
                    #expect(leaf.calls == [method.expectedCallAt(indexPath)], "\(method.name) \(indexPath)")
                }
                #expect(tree.leaves.allSatisfy { $0 === reached || $0.calls.isEmpty }, "\(method.name) \(indexPath) reached another leaf")
            }
        }
    }

    @Test("Any tree: prefetching hands each leaf, once, exactly the paths the hooks lead to it, in their order")
    func prefetchFanOut() async {
        let paths = Self.indexPaths.array(of: 0...12)
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...99).array(of: 1...24), paths) { script, indexPaths in
            let prefetch = PropagationCase.rowCases.first { $0.name == "prefetchRows" }!
            let tree = RoutingTree(script: script)
            tree.root.prefetchRows(at: indexPaths)
            for leaf in tree.leaves {
                let own = indexPaths.filter {
                    if case .leaf(let reached) = tree.destination(of: prefetch, at: $0) { reached === leaf } else { false }
                }
                #expect(leaf.calls == (own.isEmpty ? [] : ["prefetchRows(\(own))"]))
            }
        }
    }

    @Test("A move is routed by its source, whatever the destination")
    func moveRoutedBySource() throws {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let root = CascadingRootTableDelegate(childDelegates: children)
        try root.moveRow(from: TableIndexPath(section: 1, row: 0), to: TableIndexPath(section: 0, row: 3))
        #expect(children[1].calls == ["moveRow([1, 0], [0, 3])"])
        #expect(children[0].calls.isEmpty)
        try root.moveRow(from: TableIndexPath(section: 5, row: 0), to: TableIndexPath(section: 0, row: 0))
        #expect(children.map(\.calls.count) == [0, 1], "a source out of range reaches no child, even with a destination in range")
    }
}
