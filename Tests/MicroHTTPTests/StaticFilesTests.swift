import HTTPTestSupport
import MicroHTTP
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Static files")
struct StaticFilesTests {
    /// A temporary public folder with one stylesheet, and a secret file beside it.
    static func makeFolder() throws -> String {
        var template = Array("/tmp/microhttp-static-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestConnection.Failure(description: "mkdtemp failed")
        }
        let base = String(cString: made)
        mkdir(base + "/public", 0o755)
        try write("body { color: red; }", to: base + "/public/site.css")
        try write("secret", to: base + "/secret.txt")
        return base
    }

    static func write(_ text: String, to path: String) throws {
        let file = try #require(fopen(path, "wb"))
        defer { fclose(file) }
        _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
    }

    static func router(root: String) -> Router {
        var router = Router()
        router.immediate(.get, "/public/*path", StaticFiles(root: root + "/public").respond)
        return router
    }

    @Test func servesWithContentTypeETagAnd304() async throws {
        let base = try Self.makeFolder()
        try await withServer(Self.router(root: base)) { server in
            let connection = try await TestConnection(port: server.port)
            let file = try await connection.request("GET", "/public/site.css")
            #expect(file.status == 200)
            #expect(file.text == "body { color: red; }")
            #expect(file.header("Content-Type") == "text/css; charset=utf-8")
            #expect(file.header("Cache-Control") != nil)
            let etag = try #require(file.header("ETag"))
            let revalidated = try await connection.request("GET", "/public/site.css", headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
            let stale = try await connection.request("GET", "/public/site.css", headers: [("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
            #expect(try await connection.request("GET", "/public/missing.css").status == 404)
        }
    }

    @Test func aFileResponseWithChangedHeadersKeepsThemAndItsBody() async throws {
        let base = try Self.makeFolder()
        let files = StaticFiles(root: base + "/public")
        var router = Router()
        router.immediate(.get, "/public/*path", files.respond)
        router.immediate(.get, "/styled/*path") { request in
            var response = files.respond(to: request)
            response.headers["Cache-Control"] = "no-store"
            response.headers.add("X-Extra", "1")
            return response
        }
        try await withServer(router) { server in
            let connection = try await TestConnection(port: server.port)
            for _ in 0..<3 {
                let shared = try await connection.request("GET", "/public/site.css")
                #expect(shared.text == "body { color: red; }")
                #expect(shared.header("Cache-Control") == "public, max-age=300")
                #expect(shared.header("X-Extra") == nil)
                let changed = try await connection.request("GET", "/styled/site.css")
                #expect(changed.status == 200)
                #expect(changed.text == "body { color: red; }")
                #expect(changed.header("Cache-Control") == "no-store")
                #expect(changed.header("X-Extra") == "1")
                #expect(changed.header("Content-Type") == "text/css; charset=utf-8")
            }
            let head = try await connection.request("HEAD", "/public/site.css")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "20")
            #expect(head.body.isEmpty)
        }
    }

    @Test(arguments: ["/public/../secret.txt", "/public/%2e%2e/secret.txt", "/public/%2E%2E%2Fsecret.txt", "/public/..%2fsecret.txt", "/public/./site.css", "/public/%2esite.css", "/public/a%5Csite.css"])
    func refusesPathTraversal(path: String) async throws {
        let base = try Self.makeFolder()
        try await withServer(Self.router(root: base)) { server in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request("GET", path)
            #expect(response.status == 403)
            #expect(!response.text.contains("secret"))
        }
    }
}
