import Foundation
import HTTPTestSupport
import MicroHTTP
import TablePages
import TablePagesExamples
@testable import TablePagesTestSupport
import Testing

/// The site's files as a library user gets them: built in, with no folder to configure
/// (`withSite` builds its `Site` with no public directory unless given one).
@Suite("Site assets")
struct SiteAssetsTests {
    /// `Public/` of this checkout, found from this file rather than the working directory.
    static let publicDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Public").path

    static func bytes(ofPublicFile path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: publicDirectory + "/" + path)))
    }

    @Test(arguments: [
        ("/public/table-pages.js", "table-pages.js", "text/javascript; charset=utf-8"),
        ("/public/table-pages-live.js", "table-pages-live.js", "text/javascript; charset=utf-8"),
        ("/public/table-pages.css", "table-pages.css", "text/css; charset=utf-8"),
        ("/public/favicon.svg", "favicon.svg", "image/svg+xml"),
        ("/openapi.json", "openapi.json", "application/json; charset=utf-8"),
    ])
    func aSiteWithoutAPublicDirectoryServesTheBuiltInAssets(url: String, file: String, contentType: String) async throws {
        let expected = try Self.bytes(ofPublicFile: file)
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request("GET", url)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == contentType)
            #expect(response.body == expected, "the built-in \(file) is not the one in Public/")
            let etag = try #require(response.header("ETag"))
            let revalidated = try await connection.request("GET", url, headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
        }
    }

    @Test func theExamplesBringTheirPicturesAndTheLibraryAloneDoesNot() async throws {
        var pages = PageRegistry()
        ExamplePages.register(in: &pages)
        let expected = try Self.bytes(ofPublicFile: "images/gallery/alpine-lake.svg")
        try await withSite(pages: pages) { server, _ in
            let connection = try await TestConnection(port: server.port)
            let picture = try await connection.request("GET", "/public/images/gallery/alpine-lake.svg")
            #expect(picture.status == 200)
            #expect(picture.header("Content-Type") == "image/svg+xml")
            #expect(picture.body == expected)
        }
        try await withSite { server, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/public/images/gallery/alpine-lake.svg").status == 404)
        }
        #expect(!SiteAssets.files.contents.keys.contains { $0.hasPrefix("images/") })
    }

    @Test func everyFileOfPublicIsBuiltInExactlyOnce() throws {
        let onDisk = try #require(FileManager.default.subpaths(atPath: Self.publicDirectory)).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.publicDirectory + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        let library = Set(SiteAssets.files.contents.keys)
        let examples = Set(ExamplePages.publicFiles.contents.keys)
        #expect(library.isDisjoint(with: examples))
        #expect(library.union(examples) == Set(onDisk))
        for path in onDisk {
            #expect((SiteAssets.files[path] ?? ExamplePages.publicFiles[path]) == (try Self.bytes(ofPublicFile: path)), "\(path) differs")
        }
    }

    @Test func aFileInThePublicDirectoryWinsOverTheBuiltInOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("site-assets-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("body { background: pink; }".utf8).write(to: folder.appendingPathComponent("table-pages.css"))
        let script = try Self.bytes(ofPublicFile: "table-pages.js")
        try await withSite(publicDirectory: folder.path) { server, _ in
            let connection = try await TestConnection(port: server.port)
            #expect(try await connection.request("GET", "/public/table-pages.css").text == "body { background: pink; }")
            #expect(try await connection.request("GET", "/public/table-pages.js").body == script)
        }
    }

    @Test func aMissingPublicDirectoryIsAWarningAtStartup() {
        let log = LogRecorder()
        _ = Site(pages: TestPages.registry(), publicDirectory: "/nonexistent/public", logger: log.logger())
        #expect(log.messages(at: .warning).contains { $0.contains("/nonexistent/public") && $0.contains("does not exist") })
        let quiet = LogRecorder()
        _ = Site(pages: TestPages.registry(), publicDirectory: Self.publicDirectory, logger: quiet.logger())
        _ = Site(pages: TestPages.registry(), logger: quiet.logger())
        #expect(quiet.messages(at: .warning).isEmpty)
    }
}
