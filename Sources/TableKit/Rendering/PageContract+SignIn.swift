extension PageContract {
    /// Where a browser signs in: `GET /-/signin?token=…` with the sign-in URL's secret; without one
    /// it answers a page saying how to get that URL.
    public static let signInPath = "/-/signin"
}
