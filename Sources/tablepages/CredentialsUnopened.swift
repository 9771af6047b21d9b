/// Why `serve` does not start: the credentials file cannot be opened.
struct CredentialsUnopened: Error, CustomStringConvertible {
    let path: String
    let error: any Error

    var description: String { "cannot open the credentials file \(path): \(error)" }
}
