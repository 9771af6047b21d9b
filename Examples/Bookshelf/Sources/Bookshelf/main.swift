import MicroHTTP
import TablePages

// `--port N` picks the port; 0 lets the system choose one, which the "listening on" line names.
let arguments = CommandLine.arguments
let port = zip(arguments, arguments.dropFirst()).first { $0.0 == "--port" }.flatMap { Int($0.1) } ?? 8080

var pages = PageRegistry()
pages.register(BookshelfPage.definition())
pages.register(publicFiles: BookshelfPage.publicFiles)
let site = Site(pages: pages, title: "My library")

let server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: port), responder: site.router)
try server.start()
// Anyone may read; changing anything needs an actor. This logs the link that signs a browser in.
site.access.logSignInLink(at: "http://127.0.0.1:\(server.port)")

// Ctrl-C or SIGTERM: refuse new work, let requests in flight finish, end live streams, exit 0.
_ = await TerminationSignal.wait()
site.beginShutdown()
await server.shutdown()
