import Foundation
import HTTPTestSupport
import HostileTextSupport
@testable import MicroHTTP
import PropertyBased
import Testing

@Suite("Built-in files")
struct BuiltInFilesTests {
    static func router(_ files: StaticFiles) -> Router {
        var router = Router()
        router.immediate(.get, "/public/*path", files.respond)
        return router
    }

    static let stylesheet = BuiltInFiles(["site.css": Array("body { color: blue; }".utf8), "images/dot.svg": Array("<svg/>".utf8)])

    @Test func base64DecodesWhatFoundationEncodes() async {
        await propertyCheckFailingOnThrow(input: Gen.uint8().array(of: 0...300)) { bytes in
            let text = Data(bytes).base64EncodedString()
            let decoded = Array(text.utf8).withUnsafeBufferPointer(Base64.decode)
            #expect(decoded == bytes)
        }
    }

    @Test(arguments: ["QQ", "QQ=", "Q===", "QQ=A", "QQ==QQ==", "QQ?=", "QUJD\n"])
    func base64RefusesMalformedText(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer(Base64.decode) == nil)
    }

    @Test func base64LiteralsBecomeTheirBytes() {
        let files = BuiltInFiles(base64Encoded: [(path: "a.txt", base64: "aGVsbG8="), (path: "empty", base64: "")])
        #expect(files["a.txt"] == Array("hello".utf8))
        #expect(files["empty"] == [])
        #expect(files["missing"] == nil)
    }

    @Test func aFileAddedLaterReplacesOneAtTheSamePath() {
        var files = Self.stylesheet
        files.add(BuiltInFiles(["site.css": [1, 2, 3], "new.js": [4]]))
        #expect(files["site.css"] == [1, 2, 3])
        #expect(files["new.js"] == [4])
        #expect(files["images/dot.svg"] == Array("<svg/>".utf8))
    }

    @Test func servesBuiltInFilesWithContentTypeETagAnd304() async throws {
        try await withServer(Self.router(StaticFiles(builtIn: Self.stylesheet))) { server in
            let connection = try await TestConnection(port: server.port)
            let file = try await connection.request("GET", "/public/site.css")
            #expect(file.status == 200)
            #expect(file.text == "body { color: blue; }")
            #expect(file.header("Content-Type") == "text/css; charset=utf-8")
            let etag = try #require(file.header("ETag"))
            #expect(etag == StaticFiles.etag(for: Array("body { color: blue; }".utf8)))
            #expect(try await connection.request("GET", "/public/site.css", headers: [("If-None-Match", etag)]).status == 304)
            #expect(try await connection.request("GET", "/public/images/dot.svg").header("Content-Type") == "image/svg+xml")
            #expect(try await connection.request("GET", "/public/missing.css").status == 404)
            #expect(try await connection.request("GET", "/public/../site.css").status == 403)
        }
    }

    @Test func aFileInTheOverrideFolderWinsAndTheOthersStayBuiltIn() async throws {
        let base = try StaticFilesTests.makeFolder()  // public/site.css is red there
        try await withServer(Self.router(StaticFiles(root: base + "/public", builtIn: Self.stylesheet))) { server in
            let connection = try await TestConnection(port: server.port)
            for _ in 0..<2 {  // the second time from the cache
                #expect(try await connection.request("GET", "/public/site.css").text == "body { color: red; }")
                #expect(try await connection.request("GET", "/public/images/dot.svg").text == "<svg/>")
            }
        }
    }

    @Test func aMissingOverrideFolderLeavesTheBuiltInFiles() async throws {
        let files = StaticFiles(root: "/nonexistent-\(UInt64.random(in: 0...UInt64.max))", builtIn: Self.stylesheet)
        try await withServer(Self.router(files)) { server in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/public/site.css").text == "body { color: blue; }")
            #expect(try await connection.request("GET", "/public/other.css").status == 404)
        }
    }
}
