import Foundation
import Hummingbird
import Logging

/// Peer server for `Benchmarks/http.sh`: serves one file, read into memory once at startup,
/// for `GET /public/<name>`, so that the benchmark compares HTTP stacks rather than file I/O.
///
/// Usage: `HummingbirdPeer [--host H] [--port P] [--content-type T] FILE`
@main
struct HummingbirdPeer {
    static func main() async throws {
        var host = "127.0.0.1"
        var port = 8080
        var contentType = "application/octet-stream"
        var file: String?

        var arguments = CommandLine.arguments.dropFirst()
        func value() -> String {
            guard let value = arguments.popFirst() else { usage() }
            return value
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--host": host = value()
            case "--port": guard let value = Int(value()) else { usage() }; port = value
            case "--content-type": contentType = value()
            case _ where argument.hasPrefix("-") || file != nil: usage()
            default: file = argument
            }
        }
        guard let file else { usage() }

        let body = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: file)))
        let headers: HTTPFields = [.contentType: contentType]

        let router = Router()
        router.get("/public/{name}") { _, _ in
            Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }

        // Per-request logging would skew the comparison; our server runs at warning too.
        var logger = Logger(label: "HummingbirdPeer")
        logger.logLevel = .warning

        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            logger: logger
        )
        try await app.runService()
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data(
            "usage: HummingbirdPeer [--host H] [--port P] [--content-type T] FILE\n".utf8))
        exit(2)
    }
}
