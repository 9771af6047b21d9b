import MicroHTTP
import TablePages

// `--port N` picks the port; 0 lets the system choose one, which the "listening on" line names.
let arguments = CommandLine.arguments
let port = zip(arguments, arguments.dropFirst()).first { $0.0 == "--port" }.flatMap { Int($0.1) } ?? 8080

var pages = PageRegistry()
pages.register(BookshelfPage.definition())
pages.register(publicFiles: BookshelfPage.publicFiles)
// A demo on your own machine: anyone who can reach it may mark books read. Without this, writing
// needs a signed-in browser or a script's token (see "Who may read and write" in README.md).
let site = Site(pages: pages, title: "My library", access: AccessSettings(anonymousWrites: true))

let server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: port), responder: site.router)
try server.start()

// Ctrl-C or SIGTERM: refuse new work, let requests in flight finish, end live streams, exit 0.
_ = await TerminationSignal.wait()
site.beginShutdown()
await server.shutdown()
