import HostileTextSupport
@testable import MicroHTTP
import PropertyBased
import Testing

/// The request lifecycle driven without a socket: every event in every state, and random event
/// sequences against the rules the server relies on.
@Suite("Request lifecycle")
struct RequestLifecycleTests {
    /// The events libmicrohttpd's callbacks and a handler report.
    enum Event: CaseIterable {
        case head, badHead, headTooLong, chunk, chunkOverLimit, chunkOverdue, complete, completeShuttingDown
        case answeredNow, answeredLater, unreadable, handlerFinished, streamQueued, ended
    }

    /// The states, by how a fresh lifecycle reaches each.
    enum StateKind: String, CaseIterable {
        case awaitingHead, receiving, handling, waiting, ready, answered, answeredStream, ended

        var path: [Event] {
            switch self {
            case .awaitingHead: []
            case .receiving: [.head]
            case .handling: [.head, .complete]
            case .waiting: [.head, .complete, .answeredLater]
            case .ready: [.head, .complete, .answeredLater, .handlerFinished]
            case .answered: [.head, .complete, .answeredNow]
            case .answeredStream: [.head, .complete, .answeredNow, .streamQueued]
            case .ended: [.head, .ended]
            }
        }

        init(_ state: RequestLifecycle.State) {
            self = switch state {
            case .awaitingHead: .awaitingHead
            case .receiving: .receiving
            case .handling: .handling
            case .waiting: .waiting
            case .ready: .ready
            case .answered(let isStream): isStream ? .answeredStream : .answered
            case .ended: .ended
            }
        }
    }

    static let bodyLimit = 8
    static let request = Request(method: .get, path: "/", pathSegments: [])

    /// Reports `event` with `chunk` as the body bytes (for the chunk events) and `status` as the
    /// handler's response (for ``Event/handlerFinished``).
    static func report(_ event: Event, to lifecycle: inout RequestLifecycle, chunk: [UInt8] = [1], status: Int = 200) -> RequestLifecycle.Action {
        switch event {
        case .head: return lifecycle.headReceived(problem: nil, declaredBodyLength: nil, bodyLimit: bodyLimit)
        case .badHead: return lifecycle.headReceived(problem: HTTPError(400, "bad"), declaredBodyLength: nil, bodyLimit: bodyLimit)
        case .headTooLong: return lifecycle.headReceived(problem: nil, declaredBodyLength: bodyLimit + 1, bodyLimit: bodyLimit)
        case .chunk: return chunk.withUnsafeBytes { lifecycle.bodyReceived($0, bodyLimit: bodyLimit, isOverdue: false) }
        case .chunkOverLimit:
            return [UInt8](repeating: 9, count: bodyLimit + 1).withUnsafeBytes { lifecycle.bodyReceived($0, bodyLimit: bodyLimit, isOverdue: false) }
        case .chunkOverdue: return chunk.withUnsafeBytes { lifecycle.bodyReceived($0, bodyLimit: bodyLimit, isOverdue: true) }
        case .complete: return lifecycle.bodyComplete(isShuttingDown: false)
        case .completeShuttingDown: return lifecycle.bodyComplete(isShuttingDown: true)
        case .answeredNow: return lifecycle.responderAnswered(.now(Response(status: 201)), to: request)
        case .answeredLater: return lifecycle.responderAnswered(.later { Response(status: 202) }, to: request)
        case .unreadable: return lifecycle.requestUnreadable(.error(400, "unreadable", json: false))
        case .handlerFinished: return lifecycle.handlerFinished(Response(status: status))
        case .streamQueued:
            lifecycle.streamQueued()
            return .proceed
        case .ended: return lifecycle.ended()
        }
    }

    /// An action's name, for comparing with the table.
    static func name(_ action: RequestLifecycle.Action) -> String {
        switch action {
        case .proceed: "proceed"
        case .refuse: "refuse"
        case .refuseAndClose: "refuseAndClose"
        case .handle: "handle"
        case .queue: "queue"
        case .start: "start"
        case .resume: "resume"
        case .restoreIdleTimeout: "restoreIdleTimeout"
        }
    }

    /// The table: what each event does in each state. Anything not listed does nothing and leaves
    /// the state as it is, except that the request's end ends every state.
    static func expected(_ state: StateKind, _ event: Event) -> (outcome: String, state: StateKind) {
        switch (state, event) {
        case (.awaitingHead, .head): ("proceed", .receiving)
        case (.awaitingHead, .badHead), (.awaitingHead, .headTooLong): ("refuse", .answered)
        case (.receiving, .chunk): ("proceed", .receiving)
        case (.receiving, .chunkOverLimit), (.receiving, .chunkOverdue): ("refuseAndClose", .answered)
        case (.receiving, .complete): ("handle", .handling)
        case (.receiving, .completeShuttingDown): ("refuse", .answered)
        case (.handling, .answeredNow), (.handling, .unreadable): ("queue", .answered)
        case (.handling, .answeredLater): ("start", .waiting)
        case (.waiting, .handlerFinished): ("resume", .ready)
        // A finished handler's answer goes out even once shutdown began: it is the request's answer.
        case (.ready, .complete), (.ready, .completeShuttingDown): ("queue", .answered)
        case (.answered, .streamQueued): ("proceed", .answeredStream)
        case (.answeredStream, .ended): ("restoreIdleTimeout", .ended)
        case (_, .ended): ("proceed", .ended)
        default: ("proceed", state)
        }
    }

    @Test("Every event in every state does what the table says", arguments: StateKind.allCases)
    func everyEventInEveryState(state: StateKind) {
        expectEveryEvent(
            in: state, reachedBy: state.path, from: RequestLifecycle(), kind: { StateKind($0.state) },
            report: { Self.name(Self.report($0, to: &$1)) }, expected: Self.expected
        )
    }

    @Test("The body is the chunks in order, up to the limit exactly; the refusals say why")
    func bodyAndRefusals() throws {
        var lifecycle = RequestLifecycle()
        _ = Self.report(.head, to: &lifecycle)
        _ = Self.report(.chunk, to: &lifecycle, chunk: [1, 2, 3])
        _ = Self.report(.chunk, to: &lifecycle, chunk: [4, 5, 6, 7, 8])
        guard case .handle(let body) = Self.report(.complete, to: &lifecycle) else { Issue.record("no handle"); return }
        #expect(body == [1, 2, 3, 4, 5, 6, 7, 8])

        var over = RequestLifecycle()
        _ = Self.report(.head, to: &over)
        _ = Self.report(.chunk, to: &over, chunk: [1, 2, 3, 4, 5])
        guard case .refuseAndClose(let refusal) = Self.report(.chunk, to: &over, chunk: [6, 7, 8, 9]) else { Issue.record("not refused"); return }
        #expect(refusal == .bodyTooLarge)

        var late = RequestLifecycle()
        _ = Self.report(.head, to: &late)
        guard case .refuseAndClose(let lateRefusal) = Self.report(.chunkOverdue, to: &late) else { Issue.record("not refused"); return }
        #expect(lateRefusal == .receiveTimedOut)

        var declared = RequestLifecycle()
        guard case .refuse(let declaredRefusal) = Self.report(.headTooLong, to: &declared) else { Issue.record("not refused"); return }
        #expect(declaredRefusal == .bodyTooLarge)
    }

    @Test("A late handler after shutdown answered 503 resumes nothing; the first response is the one queued")
    func firstFinishWins() throws {
        var lifecycle = RequestLifecycle()
        for step in StateKind.waiting.path { _ = Self.report(step, to: &lifecycle) }
        #expect(Self.name(Self.report(.handlerFinished, to: &lifecycle, status: 503)) == "resume")
        #expect(Self.name(Self.report(.handlerFinished, to: &lifecycle, status: 200)) == "proceed")
        guard case .queue(let response, let request) = Self.report(.complete, to: &lifecycle) else { Issue.record("nothing queued"); return }
        #expect(response.status == 503)
        #expect(request?.path == "/", "the request log gets the parsed request")
    }

    @Test("An idle context stays small: an event stream's lasts as long as the stream")
    func stateIsSmall() {
        #expect(MemoryLayout<RequestLifecycle>.size <= 9)
    }

    /// Random event sequences, each checked against the rules the callbacks rely on.
    @Test("Any sequence of events: one answer at most, nothing after it, a resume only of a suspended request")
    func anySequence() async {
        let steps = zip(Gen.int(in: 0...(Event.allCases.count - 1)), Gen.int(in: 0...5)).array(of: 0...40)
        await propertyCheckFailingOnThrow(count: 500, input: steps) { steps in
            var lifecycle = RequestLifecycle()
            var answers = 0, handles = 0, starts = 0, resumes = 0, restores = 0
            var headAccepted = false, ended = false, streamAfterAnswer = false
            var accepted: [UInt8] = []
            var firstFinished: Int?
            var trace: [String] = []
            for (index, (eventIndex, size)) in steps.enumerated() {
                let event = Event.allCases[eventIndex]
                let chunk = (0..<size).map { UInt8(truncatingIfNeeded: index * 8 + $0) }
                let status = 200 + index
                let action = Self.report(event, to: &lifecycle, chunk: chunk, status: status)
                trace.append("\(event)→\(Self.name(action))")
                let context = trace.joined(separator: " ")
                if ended { #expect(Self.name(action) == "proceed", "after the end: \(context)") }
                switch action {
                case .proceed:
                    if event == .head, !headAccepted, answers == 0, !ended { headAccepted = true }
                    if event == .chunk, headAccepted, handles == 0, answers == 0, !ended { accepted += chunk }
                case .refuse, .refuseAndClose:
                    answers += 1
                    #expect(handles == 0, "refused a request already handled: \(context)")
                case .queue(let response, _):
                    answers += 1
                    #expect(handles == 1, "queued without handling: \(context)")
                    if resumes == 1 { #expect(response.status == firstFinished, "not the first finished response: \(context)") }
                case .handle(let body):
                    handles += 1
                    #expect(headAccepted, "handled without a head: \(context)")
                    #expect(body == accepted, "the body is not the chunks received: \(context)")
                    #expect(body.count <= Self.bodyLimit, "\(context)")
                case .start:
                    starts += 1
                    #expect(handles == 1, "\(context)")
                case .resume:
                    resumes += 1
                    #expect(starts == 1, "resumed what was never suspended: \(context)")
                    firstFinished = firstFinished ?? status
                case .restoreIdleTimeout:
                    restores += 1
                    #expect(streamAfterAnswer, "restored a timeout no stream turned off: \(context)")
                }
                #expect(answers <= 1, "two answers: \(context)")
                #expect(handles <= 1 && starts <= 1 && resumes <= 1 && restores <= 1, "\(context)")
                if starts == 1 && resumes == 0 { #expect(answers == 0, "answered while suspended: \(context)") }
                if event == .streamQueued, answers == 1 { streamAfterAnswer = true }
                if event == .ended { ended = true }
            }
        }
    }
}
