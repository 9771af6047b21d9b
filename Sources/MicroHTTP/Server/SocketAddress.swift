import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A resolved IPv4 or IPv6 listening address, stored as raw `sockaddr` bytes for libmicrohttpd.
struct SocketAddress: Sendable {
    let storage: [UInt8]
    let isIPv6: Bool

    /// Resolves `host` (numeric or a name) for `port`; nil when it does not resolve.
    init?(host: String, port: Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        guard let address = info.pointee.ai_addr else { return nil }
        storage = Array(UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
        isIPv6 = info.pointee.ai_family == AF_INET6
    }

    /// Calls `body` with a pointer to the `sockaddr`.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        storage.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
