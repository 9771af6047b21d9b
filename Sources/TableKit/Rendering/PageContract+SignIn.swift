extension PageContract {
    /// Where a browser signs in: `GET /-/signin?token=…` with the sign-in URL's secret; without one
    /// it answers a page saying how to get that URL.
    public static let signInPath = "/-/signin"
    /// Where a browser signs out: `GET` asks to confirm, `POST` clears the session cookie.
    public static let signOutPath = "/-/signout"
}
