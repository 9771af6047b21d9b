import ArgumentParser
import Foundation
import TablePages

/// `tablepages secret rotate|link`: a new session secret, which signs every browser out; a new
/// sign-in link.
struct SecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Manage the session secret that signs the sign-in links and session cookies, and make sign-in links.",
        subcommands: [Rotate.self, Link.self]
    )

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new session secret: every browser is signed out (a running server notices within a second) and every sign-in link not used yet stops working."
        )

        @OptionGroup var store: CredentialsOptions
        @OptionGroup var links: SignInLinkOptions

        func run() throws {
            links.printNewLink(
                signedWith: SessionSecret(bytes: try store.open().rotateSessionSecret()),
                after: "The session secret is new: everyone is signed out. Sign in again at the server's address followed by:"
            )
        }
    }

    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a new sign-in link's path: it signs one browser in, once, within --sign-in-link-lifetime; its last line of output is the path.",
            discussion: "Put the server's address in front, e.g. http://127.0.0.1:8080/-/signin?token=… . Any server sharing this credentials file accepts it."
        )

        @OptionGroup var store: CredentialsOptions
        @OptionGroup var links: SignInLinkOptions

        func run() throws {
            links.printNewLink(
                signedWith: SessionSecret(bytes: try store.open().sessionSecret()),
                after: "A sign-in link for one browser, once, within \(links.signInLinkLifetime) s; open the server's address followed by:"
            )
        }
    }
}
