import Foundation

/// The sign-in links used so far, in memory, for a server without a ``CredentialStore`` (whose
/// secret, and so whose links, last only as long as the process): each nonce until its link expires.
struct UsedSignInNonces: Sendable {
    private var expiries: [String: Date] = [:]

    /// Records `nonce` as used until `expires`: true the first time, false after. Drops the
    /// nonces that expired by `now` first, so the table holds only links that could still sign in.
    mutating func claim(_ nonce: String, expires: Date, now: Date) -> Bool {
        expiries = expiries.filter { $0.value > now }
        guard expiries[nonce] == nil else { return false }
        expiries[nonce] = expires
        return true
    }

    /// How many are recorded (tests).
    var count: Int { expiries.count }
}
