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

    /// The numeric text form of a peer address, e.g. `127.0.0.1` or `::1`.
    static func text(of address: UnsafePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(address.pointee.sa_family)
        let converted: UnsafePointer<CChar>? = address.withMemoryRebound(to: UInt8.self, capacity: 1) { raw in
            let base = UnsafeRawPointer(raw)
            switch family {
            case AF_INET:
                let inet = base.assumingMemoryBound(to: sockaddr_in.self)
                return withUnsafePointer(to: inet.pointee.sin_addr) {
                    inet_ntop(AF_INET, $0, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                let inet6 = base.assumingMemoryBound(to: sockaddr_in6.self)
                return withUnsafePointer(to: inet6.pointee.sin6_addr) {
                    inet_ntop(AF_INET6, $0, &buffer, socklen_t(buffer.count))
                }
            default:
                return nil
            }
        }
        guard converted != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
