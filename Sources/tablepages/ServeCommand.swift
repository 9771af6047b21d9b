import ArgumentParser
import Logging
import MicroHTTP
import TablePages
import TablePagesExamples

/// `tablepages serve`: runs the web service until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the web server until interrupted (Ctrl-C or SIGTERM stop it gracefully).",
        discussion: """
            Examples:
              tablepages serve                          # http://127.0.0.1:8080
              tablepages serve --host 0.0.0.0 --port 80 # every interface, e.g. in a container
              tablepages serve --port 0                 # any free port; the log says which
            """
    )

    @Option(help: "Address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 (all IPv4), :: (all).")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one.")
    var port = 8080

    @Option(help: "Event threads (default: one per core).")
    var threads = ProcessInfoLite.activeProcessorCount

    @Option(help: "Folder served under /public/.")
    var publicDirectory = "Public"

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Most connections open at once.")
    var connectionLimit = 10_000

    @Option(help: "Most connections from one client address (0: no limit).")
    var perClientConnectionLimit = 1_000

    @Option(help: "Seconds an idle connection is kept open (0: forever).")
    var connectionTimeout = 60

    @Option(help: "Largest request body in bytes; larger ones get 413.")
    var maxBodySize = 1 << 20

    @Option(help: "Seconds between heartbeat comments on live event streams.")
    var heartbeatInterval = 15

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1.") }
        guard connectionLimit >= 1 else { throw ValidationError("--connection-limit must be at least 1.") }
        guard perClientConnectionLimit >= 0, connectionTimeout >= 0 else {
            throw ValidationError("--per-client-connection-limit and --connection-timeout must not be negative.")
        }
        guard maxBodySize >= 0 else { throw ValidationError("--max-body-size must not be negative.") }
        guard heartbeatInterval >= 1 else { throw ValidationError("--heartbeat-interval must be at least 1 second.") }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "tablepages")
        var configuration = ServerConfiguration(host: host, port: port)
        configuration.threads = threads
        configuration.connectionLimit = connectionLimit
        configuration.perClientConnectionLimit = perClientConnectionLimit
        configuration.connectionTimeout = connectionTimeout
        configuration.maxBodySize = maxBodySize
        configuration.heartbeatInterval = .seconds(heartbeatInterval)

        var pages = PageRegistry()
        ExamplePages.register(in: &pages)
        let site = Site(pages: pages, publicDirectory: publicDirectory, logger: logger)
        let server = Server(configuration: configuration, responder: site.router, logger: logger)
        do {
            try server.start()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        let signal = await TerminationSignal.wait()
        logger.notice("received \(signal)")
        await server.shutdown()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
