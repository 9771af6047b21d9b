import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves the files of one folder, cached in memory, with `ETag`/`If-None-Match` revalidation.
///
/// Paths that try to leave the folder (`..`, `.`, an encoded `/` or `\` inside a segment) are refused
/// with 403, whether they arrived encoded or not.
///
///     let files = StaticFiles(root: "Public")
///     router.immediate(.get, "/public/*path", files.respond)
public final class StaticFiles: Sendable {
    struct CachedFile: Sendable {
        let bytes: [UInt8]
        let etag: String
        let contentType: String
    }

    /// The folder the files come from.
    public let root: String
    /// The `Cache-Control` value sent with every file.
    public let cacheControl: String
    private let cache = Mutex<[String: CachedFile]>([:])

    /// Serves files under `root`; `cacheControl` lets browsers reuse a file for a while, then revalidate.
    public init(root: String, cacheControl: String = "public, max-age=300") {
        self.root = root
        self.cacheControl = cacheControl
    }

    /// Answers a request whose route captured the file's relative path as the `path` parameter.
    public func respond(to request: Request) -> Response {
        let segments = (request.parameters["path"] ?? "").split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.allSatisfy(Self.isSafeSegment) else {
            return .error(403, "That path is outside the public folder.", for: request)
        }
        let relativePath = segments.joined(separator: "/")
        guard let file = file(at: relativePath) else {
            return .error(404, "No file named \(relativePath).", for: request)
        }
        var headers: HTTPHeaders = ["ETag": file.etag, "Cache-Control": cacheControl]
        if let candidates = request.headers["If-None-Match"],
           candidates.split(separator: ",").contains(where: { $0.trimmingSpaces == file.etag || $0.trimmingSpaces == "*" }) {
            return Response(status: 304, headers: headers)
        }
        headers.add("Content-Type", file.contentType)
        return Response(status: 200, headers: headers, body: file.bytes)
    }

    private static func isSafeSegment(_ segment: Substring) -> Bool {
        !segment.isEmpty && segment != "." && segment != ".." && !segment.hasPrefix(".")
            && !segment.contains("/") && !segment.contains("\\") && !segment.utf8.contains(0)
    }

    func file(at relativePath: String) -> CachedFile? {
        if let cached = cache.withLock({ $0[relativePath] }) { return cached }
        guard let bytes = Self.readFile(atPath: root + "/" + relativePath) else { return nil }
        let file = CachedFile(bytes: bytes, etag: Self.etag(for: bytes), contentType: MediaType.forFile(named: relativePath))
        cache.withLock { $0[relativePath] = file }
        return file
    }

    // A strong validator from the content itself (FNV-1a, 64 bits): unlike size + mtime it survives
    // copying the folder into a container image.
    static func etag(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    static func readFile(atPath path: String) -> [UInt8]? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var info = stat()
        guard fstat(fileno(handle), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
        return read == bytes.count ? bytes : nil
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
