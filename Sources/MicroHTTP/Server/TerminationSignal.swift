import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for SIGINT or SIGTERM, the signals that ask a server to stop gracefully.
///
///     try server.start()
///     let signal = await TerminationSignal.wait()
///     await server.shutdown()
public enum TerminationSignal {
    /// Suspends until the process receives SIGINT or SIGTERM, and returns its name.
    public static func wait() async -> String {
        // The signal that came, until someone waits for it; then who waits.
        let state = Mutex<(received: String?, waiting: CheckedContinuation<String, Never>?)>((nil, nil))
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            // The default action would end the process before the source could see the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let waiting = state.withLock { state in
                    if state.received == nil { state.received = name }
                    defer { state.waiting = nil }
                    return state.waiting
                }
                waiting?.resume(returning: name)
            }
            // Started at once: an ignored signal is lost, so none may arrive between SIG_IGN and
            // the source (a client that stops the server right after it starts sends one then).
            source.resume()
            sources.append(source)
        }
        let name = await withCheckedContinuation { continuation in
            let early = state.withLock { state in
                if state.received == nil { state.waiting = continuation }
                return state.received
            }
            if let early { continuation.resume(returning: early) }
        }
        for source in sources { source.cancel() }
        return name
    }
}
