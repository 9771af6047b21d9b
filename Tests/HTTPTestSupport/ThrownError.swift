/// The error `body` throws, or nil when it returns: for checking a typed error by value.
///
///     #expect(await thrownError { () async throws(TableWriteError) in try await writer.delete(key, seen: nil, by: author) } == .notFound)
public func thrownError<Failure: Error>(_ body: () async throws(Failure) -> Void) async -> Failure? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
