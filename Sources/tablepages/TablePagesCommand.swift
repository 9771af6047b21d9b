import ArgumentParser

/// The `tablepages` command line: `tablepages serve …`.
@main
struct TablePagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tablepages",
        abstract: "Serve live table pages: UITableView's data-source/delegate model on the web.",
        discussion: """
            Pages are HTML in a browser and JSON for scripts (add .json or send Accept: application/json); \
            GET /pages/{page}/events streams live row patches as Server-Sent Events.
            """,
        subcommands: [ServeCommand.self, HealthCheckCommand.self, TokenCommand.self, SecretCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
