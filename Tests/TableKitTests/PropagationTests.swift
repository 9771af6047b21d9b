import Testing
import TableKit

/// The propagation matrix of CascadingTableDelegate's suite, for every propagated method and
/// both routing modes.
@Suite("Propagation matrix")
struct PropagationTests {
    static let allRowCases = PropagationCase.rowCases + PropagationCase.argumentEchoingRowCases

    @Test("Out-of-range row index returns the default and reaches no child", arguments: allRowCases, RoutingMode.allCases)
    func outOfRangeRow(_ method: PropagationCase, mode: RoutingMode) {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let parent = mode.makeDelegate(children: children)
        for child in [2, -1] {
            #expect(method.invoke(parent, child, mode) == method.resolve(method.defaultResult, child: child, mode: mode))
        }
        #expect(children.allSatisfy { $0.calls.isEmpty })
    }

    @Test("A child that does not implement a row method gives the default", arguments: allRowCases, RoutingMode.allCases)
    func unimplementedRow(_ method: PropagationCase, mode: RoutingMode) {
        let parent = mode.makeDelegate(children: [CascadingBareTableDelegate(), CascadingBareTableDelegate()])
        #expect(method.invoke(parent, 1, mode) == method.resolve(method.unimplementedResult, child: 1, mode: mode))
    }

    @Test("An implementing child receives the exact row arguments and its result comes back", arguments: allRowCases, RoutingMode.allCases)
    func implementedRow(_ method: PropagationCase, mode: RoutingMode) {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let parent = mode.makeDelegate(children: children)
        #expect(method.invoke(parent, 1, mode) == method.implementedResult)
        #expect(children[1].calls == [method.expectedCall(1, mode)])
        #expect(children[0].calls.isEmpty)
    }

    @Test(
        "A child's error in an acting method reaches the caller through the parent; out of range, nothing throws",
        arguments: PropagationCase.rowCases.filter { PropagationCase.actingNames.contains($0.name) }, RoutingMode.allCases
    )
    func actingRowErrorsPropagate(_ method: PropagationCase, mode: RoutingMode) {
        let parent = mode.makeDelegate(children: [CascadingBareTableDelegate(), FailingDelegate()])
        #expect(method.invoke(parent, 1, mode) == "threw \(FixtureFailure())")
        #expect(method.invoke(parent, 0, mode) == method.defaultResult)
        #expect(method.invoke(parent, 2, mode) == method.defaultResult)
    }

    @Test("Out-of-range section index returns the default and reaches no child", arguments: PropagationCase.sectionCases)
    func outOfRangeSection(_ method: PropagationCase) {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let root = CascadingRootTableDelegate(childDelegates: children)
        for child in [2, -1] {
            #expect(method.invoke(root, child, .root) == method.defaultResult.replacingSectionZero(with: child))
        }
        #expect(children.allSatisfy { $0.calls.isEmpty })
    }

    @Test("A child that does not implement a section method gives the default", arguments: PropagationCase.sectionCases)
    func unimplementedSection(_ method: PropagationCase) {
        let root = CascadingRootTableDelegate(childDelegates: [CascadingBareTableDelegate(), CascadingBareTableDelegate()])
        #expect(method.invoke(root, 1, .root) == method.unimplementedResult.replacingSectionZero(with: 1))
    }

    @Test("An implementing child receives the exact section argument and its result comes back", arguments: PropagationCase.sectionCases)
    func implementedSection(_ method: PropagationCase) {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let root = CascadingRootTableDelegate(childDelegates: children)
        #expect(method.invoke(root, 1, .root) == method.implementedResult)
        #expect(children[1].calls == [method.expectedCall(1, .root)])
        #expect(children[0].calls.isEmpty)
    }

    @Test("A section delegate answers section calls itself and reaches no row child", arguments: PropagationCase.sectionCases)
    func sectionDelegateAnswersSectionCalls(_ method: PropagationCase) {
        let children = [RecordingDelegate(), RecordingDelegate()]
        let section = CascadingSectionTableDelegate(childDelegates: children)
        let result = method.invoke(section, 1, .section)
        if method.name == "numberOfRows" {
            #expect(result == "2")
        } else {
            #expect(result == method.defaultResult.replacingSectionZero(with: 1))
        }
        #expect(children.allSatisfy { $0.calls.isEmpty })
    }
}

private extension String {
    /// Defaults derived from the section index ("section-0") name the section actually asked for.
    func replacingSectionZero(with section: Int) -> String {
        self == "section-0" ? "section-\(section)" : self
    }
}
