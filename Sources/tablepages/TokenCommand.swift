import ArgumentParser
import Foundation
import TablePages
import TablePagesDatabase

/// `tablepages token create|list|revoke`: access tokens for scripts (`Authorization: Bearer …`).
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke access tokens for scripts (sent as Authorization: Bearer TOKEN).",
        discussion: "A running server notices a new or revoked token within a second; a revoked token's open event streams are closed.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a token; its last line of output is the token, shown only this once (only its hash is kept)."
        )

        @Option(help: "A unique name for the token, e.g. backup-script (letters, digits, '.', '_', '-').")
        var name: String

        @Flag(help: "Let the token write (without it, the token only reads).")
        var write = false

        @Option(help: ArgumentHelp("Let it write these pages only (comma-separated names); default: every page.", valueName: "p1,p2"))
        var pages: String?

        @OptionGroup var store: CredentialsOptions

        func validate() throws {
            if let problem = AccessTokens.problem(withName: name) { throw ValidationError(problem) }
            if let pages, pages.split(separator: ",").isEmpty { throw ValidationError("--pages needs at least one page name.") }
        }

        func run() throws {
            let pageSet = pages.map { Set($0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }) }
            let token = try AccessTokens.create(name: name, mayWrite: write, pages: pageSet, in: store.open())
            print("Created the token \u{201C}\(name)\u{201D} (\(write ? "may write " + (pageSet.map { $0.sorted().joined(separator: ", ") } ?? "every page") : "read-only")). It is shown only now:")
            print(token)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens: names, rights and creation times (never the tokens).")

        @OptionGroup var store: CredentialsOptions

        func run() throws {
            let tokens = try store.open().tokens()
            if tokens.isEmpty { print("No tokens. Make one with: tablepages token create --name NAME --write") }
            for token in tokens {
                let rights = token.mayWrite ? "write " + (token.pages.map { $0.sorted().joined(separator: ",") } ?? "*") : "read"
                print("\(token.name)\t\(rights)\tcreated \(token.created.ISO8601Format())")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: a running server refuses it within a second.")

        @Argument(help: "The token's name.")
        var name: String

        @OptionGroup var store: CredentialsOptions

        func run() throws {
            guard try store.open().revokeToken(named: name) else {
                throw ValidationError("There is no token named \u{201C}\(name)\u{201D} (see tablepages token list).")
            }
            print("Revoked \u{201C}\(name)\u{201D}.")
        }
    }
}
