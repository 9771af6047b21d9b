import ArgumentParser
import TablePages

/// `tablepages secret rotate`: a new session secret, which signs every browser out.
struct SecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Manage the session secret that signs the sign-in link and session cookies.",
        subcommands: [Rotate.self]
    )

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new session secret: every browser is signed out (a running server notices within a second) and the old sign-in link stops working."
        )

        @OptionGroup var store: CredentialsOptions

        func run() throws {
            let secret = SessionSecret(bytes: try store.open().rotateSessionSecret())
            print("The session secret is new: everyone is signed out. Sign in again at the server's address followed by:")
            print(secret.signInPath)
        }
    }
}
