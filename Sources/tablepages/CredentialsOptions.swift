import ArgumentParser
import TablePagesDatabase

/// `--credentials FILE`, shared by `serve`, `token` and `secret`: where the session secret, the used sign-in links and the
/// access tokens' hashes are kept.
struct CredentialsOptions: ParsableArguments {
    /// The default file, next to the examples' default database (the working directory).
    static let defaultPath = "tablepages-credentials.sqlite"

    @Option(help: ArgumentHelp(
        "The credentials file: the session secret, the access tokens' hashes and the used sign-in links (SQLite, created with mode 0600).",
        valueName: "file"
    ))
    var credentials = defaultPath

    func open() throws -> SQLiteCredentialStore {
        try SQLiteCredentialStore(path: credentials)
    }
}
