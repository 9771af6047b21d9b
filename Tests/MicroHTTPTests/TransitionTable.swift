import Testing

/// Checks one row of a state machine's table: a fresh machine driven along `path` must be in
/// `state`; then each event, sent to a machine in that state, must give the outcome and the next
/// state `expected` names.
func expectEveryEvent<Machine, Event: CaseIterable, Kind: Equatable>(
    in state: Kind, reachedBy path: [Event], from fresh: Machine, kind: (Machine) -> Kind,
    report: (Event, inout Machine) -> String, expected: (Kind, Event) -> (outcome: String, state: Kind),
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for event in Event.allCases {
        var machine = fresh
        for step in path { _ = report(step, &machine) }
        #expect(kind(machine) == state, "reaching \(state)", sourceLocation: sourceLocation)
        let outcome = report(event, &machine)
        let (expectedOutcome, expectedState) = expected(state, event)
        #expect(outcome == expectedOutcome, "\(event) in \(state)", sourceLocation: sourceLocation)
        #expect(kind(machine) == expectedState, "\(event) in \(state)", sourceLocation: sourceLocation)
    }
}
