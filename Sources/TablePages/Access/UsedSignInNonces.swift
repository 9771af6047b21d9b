import Foundation

/// The sign-in links used so far, in memory, for a server without a ``CredentialStore`` (whose
/// secret, and so whose links, last only as long as the process): each nonce until its link expires.
/// ``FileCredentialStore`` keeps them in a file, one line each: the expiry in seconds since 1970,
/// a space, and the nonce's UTF-8 in base64url (so that no nonce can break a line).
struct UsedSignInNonces: Sendable {
    private var expiries: [String: Date] = [:]

    /// None used.
    init() {}

    /// The nonces of a file `fileContents` wrote; a line that is not one is skipped (a file
    /// edited by hand, or cut short by a full disk, costs only the records it damaged).
    init(fileContents bytes: [UInt8]) {
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count == 2, let seconds = Double(String(decoding: fields[0], as: UTF8.self)), seconds.isFinite,
                  let nonce = Base64URL.decode(String(decoding: fields[1], as: UTF8.self))
            else { continue }
            expiries[String(decoding: nonce, as: UTF8.self)] = Date(timeIntervalSince1970: seconds)
        }
    }

    /// The file's text for these nonces, which ``init(fileContents:)`` reads back.
    var fileContents: [UInt8] {
        Array(expiries.map { "\($0.value.timeIntervalSince1970) \(Base64URL.encode($0.key.utf8))\n" }.joined().utf8)
    }

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
