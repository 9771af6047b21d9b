import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `tablepages healthcheck`: exits 0 when a local server answers `GET /healthz` (or, with
/// `--ready`, `GET /readyz`) with 200.
///
/// It exists so the container's HEALTHCHECK needs no curl in the runtime image.
struct HealthCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 if the server on this machine answers GET /healthz with 200, else 1.",
        discussion: """
            /healthz (the default) says the process answers: a container HEALTHCHECK or liveness probe. \
            --ready asks /readyz instead, which also fails while the database does not answer, a \
            database thread is stalled, or the server is shutting down: for a readiness probe.
            """
    )

    @Option(help: "Port of the local server.")
    var port = 8080

    @Flag(help: "Check readiness (GET /readyz) instead of liveness (GET /healthz).")
    var ready = false

    func run() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ExitCode.failure }
        defer { close(descriptor) }
        // /readyz may wait half a second for the database.
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ExitCode.failure }
        let request = Array("GET \(ready ? "/readyz" : "/healthz") HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw ExitCode.failure
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard received > 12, String(decoding: buffer[9..<12], as: UTF8.self) == "200" else { throw ExitCode.failure }
    }
}
