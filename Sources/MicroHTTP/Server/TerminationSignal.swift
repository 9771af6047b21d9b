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
        let pending = Mutex<CheckedContinuation<String, Never>?>(nil)
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            // The default action would end the process before the source could see the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                pending.withLock { $0.take() }?.resume(returning: name)
            }
            sources.append(source)
        }
        // Sources start only once the continuation is stored, so no signal can arrive to find none.
        let name = await withCheckedContinuation { continuation in
            pending.withLock { $0 = continuation }
            for source in sources { source.resume() }
        }
        for source in sources { source.cancel() }
        return name
    }
}
