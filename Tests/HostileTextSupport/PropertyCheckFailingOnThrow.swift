import PropertyBased
import Testing

/// Calls `propertyCheck` with `body`, recording an error `body` throws as an issue, so the
/// example fails the test.
///
/// swift-property-based runs a body under `try?`: an error it throws (a `try` of the code under
/// test, a failed `#require`) drops the example, and a property whose every example throws
/// passes. Recorded here, the error counts as a failure like a failed `#expect`, with the seed
/// that reproduces it.
public func propertyCheckFailingOnThrow<InputValue, ResultValue>(
    count: Int = 100,
    input: Generator<ResultValue, some Sequence<InputValue>>,
    perform body: (ResultValue) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await propertyCheck(count: count, input: input, perform: { value in
        do {
            try await body(value)
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
        }
    }, isolation: isolation, sourceLocation: sourceLocation)
}

/// Calls `propertyCheck` with two generators, recording an error `body` throws as an issue
/// (see ``propertyCheckFailingOnThrow(count:input:perform:isolation:sourceLocation:)``).
public func propertyCheckFailingOnThrow<InA, InB, OutA, OutB>(
    count: Int = 100,
    input g0: Generator<OutA, some Sequence<InA>>,
    _ g1: Generator<OutB, some Sequence<InB>>,
    perform body: (OutA, OutB) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await propertyCheckFailingOnThrow(count: count, input: zip(g0, g1), perform: { try await body($0.0, $0.1) },
                                      isolation: isolation, sourceLocation: sourceLocation)
}

/// Calls `propertyCheck` with three generators, recording an error `body` throws as an issue
/// (see ``propertyCheckFailingOnThrow(count:input:perform:isolation:sourceLocation:)``).
public func propertyCheckFailingOnThrow<InA, InB, InC, OutA, OutB, OutC>(
    count: Int = 100,
    input g0: Generator<OutA, some Sequence<InA>>,
    _ g1: Generator<OutB, some Sequence<InB>>,
    _ g2: Generator<OutC, some Sequence<InC>>,
    perform body: (OutA, OutB, OutC) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await propertyCheckFailingOnThrow(count: count, input: zip(g0, g1, g2), perform: { try await body($0.0, $0.1, $0.2) },
                                      isolation: isolation, sourceLocation: sourceLocation)
}
