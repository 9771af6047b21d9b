import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves the files of one folder, cached in memory, with `ETag`/`If-None-Match` revalidation: files
/// compiled into the program, and files read from a folder on disk, which win over built-in ones
/// at the same path.
///
/// Paths that try to leave the folder (`..`, `.`, an encoded `/` or `\` inside a segment) are refused
/// with 403, whether they arrived encoded or not.
///
///     let files = StaticFiles(root: "Public")
///     router.immediate(.get, "/public/*path", files.respond)
public final class StaticFiles: Sendable {
    /// A file as served: its validator and both answers, built once when the file is first read.
    final class CachedFile: Sendable {
        let bytes: [UInt8]
        let etag: String
        let contentType: String
        /// `200` with the file; its libmicrohttpd response is prepared once and shared by every request.
        let ok: Response
        /// `304 Not Modified` for a client that has this version.
        let notModified: Response

        init(bytes: [UInt8], etag: String, contentType: String, cacheControl: String) {
            self.bytes = bytes
            self.etag = etag
            self.contentType = contentType
            let headers: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl, "Content-Type": contentType]
            ok = Response(status: 200, prepared: PreparedResponse(headers: headers, body: bytes))
            notModified = Response(status: 304, prepared: PreparedResponse(headers: ["ETag": etag, "Cache-Control": cacheControl], body: []))
        }
    }

    /// The folder the files come from, before the built-in ones; nil serves only the built-in ones.
    public let root: String?
    /// The `Cache-Control` value sent with every file.
    public let cacheControl: String
    private let cache = Mutex<[String: CachedFile]>([:])
    /// The built-in files, with their validators and responses made once, here.
    private let builtIn: [String: CachedFile]

    /// Serves files under `root`, else from `builtIn`; `cacheControl` lets browsers reuse a file for
    /// a while, then revalidate.
    public init(root: String?, builtIn: BuiltInFiles = BuiltInFiles(), cacheControl: String = "public, max-age=300") {
        self.root = root
        self.cacheControl = cacheControl
        var prepared: [String: CachedFile] = [:]
        for (path, bytes) in builtIn.contents {
            prepared[path] = CachedFile(bytes: bytes, etag: Self.etag(for: bytes), contentType: MediaType.forFile(named: path), cacheControl: cacheControl)
        }
        self.builtIn = prepared
    }

    /// Serves only the files compiled into the program.
    public convenience init(builtIn: BuiltInFiles, cacheControl: String = "public, max-age=300") {
        self.init(root: nil, builtIn: builtIn, cacheControl: cacheControl)
    }

    /// Answers a request whose route captured the file's relative path as the `path` parameter.
    public func respond(to request: Request) -> Response {
        let relativePath = request.parameters["path"] ?? ""
        guard Self.isSafe(relativePath: relativePath) else {
            return .error(403, "That path is outside the public folder.", for: request)
        }
        guard let file = file(at: relativePath) else {
            return .error(404, "No file named \(relativePath).", for: request)
        }
        if let candidates = request.headers["If-None-Match"],
           candidates.split(separator: ",").contains(where: { $0.trimmingSpaces == file.etag || $0.trimmingSpaces == "*" }) {
            return file.notModified
        }
        return file.ok
    }

    /// Whether every `/`-separated segment of `relativePath` stays inside the folder: not empty, not
    /// starting with `.` (so neither `.` nor `..`, nor a hidden file), and free of `\` and NUL.
    /// Checked on the UTF-8 bytes, where all of these are single ASCII bytes.
    static func isSafe(relativePath: String) -> Bool {
        if let safe = relativePath.utf8.withContiguousStorageIfAvailable(isSafe(relativePathBytes:)) { return safe }
        return Array(relativePath.utf8).withUnsafeBufferPointer(isSafe(relativePathBytes:))
    }

    private static func isSafe(relativePathBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var segmentStart = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "/"):
                if segmentStart { return false }  // an empty segment
                segmentStart = true
            case UInt8(ascii: "."):
                if segmentStart { return false }
            case UInt8(ascii: "\\"), 0:
                return false
            default:
                segmentStart = false
            }
        }
        return !segmentStart  // empty, or ending in an empty segment
    }

    func file(at relativePath: String) -> CachedFile? {
        if let cached = cache.withLock({ $0[relativePath] }) { return cached }
        guard let root else { return builtIn[relativePath] }
        guard let bytes = Self.readFile(atPath: root + "/" + relativePath) else {
            // Remembered, so that a built-in file is not looked for on disk at every request.
            guard let file = builtIn[relativePath] else { return nil }
            cache.withLock { $0[relativePath] = file }
            return file
        }
        let file = CachedFile(bytes: bytes, etag: Self.etag(for: bytes), contentType: MediaType.forFile(named: relativePath), cacheControl: cacheControl)
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
