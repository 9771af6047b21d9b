import HostileTextSupport
@testable import MicroHTTP
import PropertyBased
import Testing

/// An event stream's life driven without a socket: every event in every state, and random event
/// sequences against the rules libmicrohttpd needs (a suspend and a resume take turns).
@Suite("Event stream life")
struct EventStreamLifeTests {
    enum Event: CaseIterable {
        case attach, write, finish, readWithBytes, readEmpty, peerWentAway, detach
    }

    enum StateKind: String, CaseIterable {
        case unattached, unattachedFinishing, awake, awakeFinishing, asleep, peerGone, detached

        var path: [Event] {
            switch self {
            case .unattached: []
            case .unattachedFinishing: [.finish]
            case .awake: [.attach]
            case .awakeFinishing: [.attach, .finish]
            case .asleep: [.attach, .readEmpty]
            case .peerGone: [.attach, .readEmpty, .peerWentAway]
            case .detached: [.attach, .detach]
            }
        }

        init(_ state: EventStreamLife.State) {
            self = switch state {
            case .unattached(let finishing): finishing ? .unattachedFinishing : .unattached
            case .awake(_, _, let finishing): finishing ? .awakeFinishing : .awake
            case .asleep: .asleep
            case .peerGone: .peerGone
            case .detached: .detached
            }
        }
    }

    /// Never dereferenced: the life only hands the connection back to be resumed or suspended.
    static let connection = ConnectionHandle(pointer: OpaquePointer(bitPattern: 0x1000)!)

    /// Reports `event`; returns what it did, as a word: `accepted`, `refused`, `wake` (resume the
    /// connection), `sleep` (suspend it), a read's outcome, or `none`.
    static func report(_ event: Event, to life: inout EventStreamLife) -> String {
        switch event {
        case .attach:
            life.attach(to: connection, descriptor: 7)
            return "none"
        case .write:
            let (accepted, wake) = life.write()
            if let wake {
                #expect(wake.pointer == connection.pointer)
                return "wake"
            }
            return accepted ? "accepted" : "refused"
        case .finish: return life.finish() == nil ? "none" : "wake"
        case .readWithBytes, .readEmpty:
            switch life.read(hasBytes: event == .readWithBytes) {
            case .copy: return "copy"
            case .wait: return "wait"
            case .sleep(let sleeping):
                #expect(sleeping.pointer == connection.pointer)
                return "sleep"
            case .end: return "end"
            case .abort: return "abort"
            }
        case .peerWentAway: return life.peerWentAway() == nil ? "none" : "wake"
        case .detach:
            life.detach()
            return "none"
        }
    }

    /// What each event does in each state; anything not listed does nothing and keeps the state,
    /// except that detaching ends every state.
    static func expected(_ state: StateKind, _ event: Event) -> (outcome: String, state: StateKind) {
        switch (state, event) {
        case (_, .detach): ("none", .detached)
        case (.unattached, .attach): ("none", .awake)
        case (.unattachedFinishing, .attach): ("none", .awakeFinishing)
        case (.unattached, .write), (.awake, .write): ("accepted", state)
        case (.asleep, .write): ("wake", .awake)
        case (.unattachedFinishing, .write), (.awakeFinishing, .write), (.peerGone, .write), (.detached, .write): ("refused", state)
        case (.unattached, .finish): ("none", .unattachedFinishing)
        case (.awake, .finish): ("none", .awakeFinishing)
        case (.asleep, .finish): ("wake", .awakeFinishing)
        case (.peerGone, .readWithBytes), (.peerGone, .readEmpty): ("abort", state)
        case (_, .readWithBytes): ("copy", state)
        case (.unattached, .readEmpty), (.asleep, .readEmpty): ("wait", state)
        case (.awake, .readEmpty): ("sleep", .asleep)
        case (.unattachedFinishing, .readEmpty), (.awakeFinishing, .readEmpty), (.detached, .readEmpty): ("end", state)
        case (.asleep, .peerWentAway): ("wake", .peerGone)
        default: ("none", state)
        }
    }

    @Test("Every event in every state does what the table says", arguments: StateKind.allCases)
    func everyEventInEveryState(state: StateKind) {
        expectEveryEvent(
            in: state, reachedBy: state.path, from: EventStreamLife(), kind: { StateKind($0.state) },
            report: { Self.report($0, to: &$1) }, expected: Self.expected
        )
    }

    @Test("Only a sleeping stream names its socket; closed means no more writes")
    func queries() {
        for state in StateKind.allCases {
            var life = EventStreamLife()
            for step in state.path { _ = Self.report(step, to: &life) }
            #expect((life.sleepingDescriptor == 7) == (state == .asleep), "\(state)")
            #expect(life.isClosed == [.unattachedFinishing, .awakeFinishing, .peerGone, .detached].contains(state), "\(state)")
            #expect(life.isDetached == (state == .detached), "\(state)")
        }
    }

    @Test("Any sequence of events: suspends and resumes take turns, nothing is accepted after the end")
    func anySequence() async {
        await propertyCheckFailingOnThrow(count: 500, input: Gen.int(in: 0...(Event.allCases.count - 1)).array(of: 0...40)) { indexes in
            var life = EventStreamLife()
            var suspended = false, attached = false, finishing = false, detached = false, peerGone = false
            var trace: [String] = []
            for index in indexes {
                let event = Event.allCases[index]
                let outcome = Self.report(event, to: &life)
                trace.append("\(event)→\(outcome)")
                let context = trace.joined(separator: " ")
                switch outcome {
                case "sleep":
                    #expect(attached && !suspended && !detached, "suspended twice or unattached: \(context)")
                    suspended = true
                case "wake":
                    #expect(suspended && !detached, "resumed what does not sleep: \(context)")
                    suspended = false
                case "accepted":
                    #expect(!finishing && !detached && !peerGone, "accepted a write after the end: \(context)")
                case "end":
                    #expect(finishing || detached, "ended a stream still open: \(context)")
                case "abort":
                    #expect(peerGone && !detached, "\(context)")
                default: break
                }
                switch event {
                case .attach: attached = attached || !detached
                case .finish: finishing = true
                case .peerWentAway: peerGone = peerGone || outcome == "wake"
                case .detach: detached = true
                default: break
                }
                #expect(life.sleepingDescriptor == nil || suspended, "a socket named while awake: \(context)")
            }
        }
    }
}
