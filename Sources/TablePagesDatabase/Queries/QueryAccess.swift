/// Who may run arbitrary SQL on the SQL page (`serve --sql`). Canned queries are for every
/// reader either way: their SQL is the operator's.
public enum QueryAccess: String, Sendable, CaseIterable {
    /// Every visitor, as in Datasette (the default): the SQL runs read-only, on a connection that
    /// cannot write, under the time, row and size limits.
    case anyone
    /// Only a browser signed in with the sign-in link, or a client with an access token.
    case signedIn = "signed-in"
    /// Nobody: the SQL page answers 403.
    case off

    /// Why `signedIn` (whether the request has an actor) may not run SQL, or nil when it may.
    func refusal(signedIn: Bool) -> String? {
        switch self {
        case .anyone: nil
        case .signedIn: signedIn ? nil : "Sign in to run SQL: this server lets only signed-in people and access tokens run their own (--sql signed-in)."
        case .off: "Running SQL is turned off on this server (--sql off)."
        }
    }
}
