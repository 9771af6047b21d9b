import ArgumentParser
import Foundation
import TablePages

/// `--sign-in-link-lifetime SECONDS`, shared by `serve` (the link it logs) and `secret link` /
/// `secret rotate` (the links they print): how long a new sign-in link signs in.
struct SignInLinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Seconds a new sign-in link signs in; each link signs in one browser, once, and is refused after that or once expired (tablepages secret link makes another).",
        valueName: "seconds"
    ))
    var signInLinkLifetime = Int(SignInLink.defaultLifetime.components.seconds)

    /// The lifetime as a duration.
    var lifetime: Duration { .seconds(signInLinkLifetime) }

    /// Prints `explanation`, then on a line of its own a new link's path, signed with `secret`,
    /// that expires one lifetime from now (scripts take the last line).
    func printNewLink(signedWith secret: SessionSecret, after explanation: String) {
        print(explanation)
        print(SignInLink.make(expires: Date() + Double(signInLinkLifetime)).path(signedWith: secret))
    }

    func validate() throws {
        let most = SignInLink.maxLifetime.components.seconds
        guard (1...most).contains(Int64(signInLinkLifetime)) else {
            throw ValidationError("--sign-in-link-lifetime is 1 to \(most) seconds (30 days).")
        }
    }
}
