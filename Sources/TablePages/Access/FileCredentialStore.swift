import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The session secret and the used sign-in links in files of one folder, so that a ``Site`` keeps
/// its visitors signed in across restarts without a database. It is ``AccessSettings``' default
/// store, in ``standardDirectory(environment:program:)``; `TablePagesDatabase`'s
/// `SQLiteCredentialStore` (what `tablepages serve` uses) also keeps access tokens.
///
/// The folder is made readable by its owner only (0700), and its files likewise (0600). Several
/// processes may share it: a file lock serialises changes, and each change replaces a file whole,
/// so a reader never sees half of one. Every call blocks on the file system; ``AccessControl``
/// makes them at start and then off the event threads and Swift's cooperative pool.
///
///     var access = AccessSettings()
///     access.credentials = FileCredentialStore(directory: "/var/lib/my-library")
public struct FileCredentialStore: CredentialStore {
    /// The folder that holds the files; made when first needed.
    public let directory: String

    /// Why a call failed: the folder or a file could not be made, read or written, or the secret
    /// file is not a secret.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, naming the file.
        public let description: String
    }

    /// A store in `directory`; touches nothing until a call needs the files.
    public init(directory: String) {
        self.directory = directory
    }

    /// A store in ``standardDirectory(environment:program:)``, or nil when there is none (no home
    /// folder): then the secret lives as long as the process, and the site says so at startup.
    public static var standard: FileCredentialStore? {
        standardDirectory().map(FileCredentialStore.init(directory:))
    }

    /// The folder a program keeps its sessions' secret in unless told otherwise: on Linux
    /// `$XDG_STATE_HOME/PROGRAM`, else `~/.local/state/PROGRAM`; on macOS
    /// `~/Library/Application Support/PROGRAM`. PROGRAM is the executable's name. Nil without a
    /// home folder (`HOME` unset or relative).
    public static func standardDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        program: String = ProcessInfo.processInfo.processName
    ) -> String? {
        // A name that is not a plain file name would lead outside the state folder.
        let name = program.isEmpty || program == "." || program == ".." ? "tablepages" : program.replacingOccurrences(of: "/", with: "_")
        #if os(macOS)
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/Library/Application Support/" + name
        #else
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/" + name }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/" + name
        #endif
    }

    private var secretPath: String { directory + "/session-secret" }
    private var usedLinksPath: String { directory + "/used-sign-in-links" }

    /// The stored secret; a new random one, stored, when there is none yet.
    public func sessionSecret() throws -> [UInt8] {
        // Read first, without the lock: the server calls this every refresh interval.
        if let bytes = try storedSecret() { return bytes }
        return try locked {
            if let bytes = try storedSecret() { return bytes }
            let bytes = SessionSecret.random().bytes
            try replace(secretPath, with: bytes)
            return bytes
        }
    }

    /// Stores a new random secret in place of the old one and returns it: every session ends.
    public func rotateSessionSecret() throws -> [UInt8] {
        try locked {
            let bytes = SessionSecret.random().bytes
            try replace(secretPath, with: bytes)
            return bytes
        }
    }

    /// None: this store keeps no access tokens.
    public func tokens() throws -> [StoredToken] { [] }

    /// Throws: this store keeps no access tokens (`SQLiteCredentialStore` does).
    public func add(_ token: StoredToken) throws {
        throw Failure(description: "\(directory) keeps no access tokens: give the site a credential store that does (TablePagesDatabase's SQLiteCredentialStore)")
    }

    /// False: this store keeps no access tokens.
    public func revokeToken(named name: String) throws -> Bool { false }

    /// Records `nonce` in `used-sign-in-links` under the folder's lock: true the first time.
    public func claimSignInNonce(_ nonce: String, expires: Date, now: Date) throws -> Bool {
        try locked {
            var used = UsedSignInNonces(fileContents: try contents(of: usedLinksPath) ?? [])
            let claimed = used.claim(nonce, expires: expires, now: now)
            try replace(usedLinksPath, with: used.fileContents)
            return claimed
        }
    }

    private func storedSecret() throws -> [UInt8]? {
        guard let bytes = try contents(of: secretPath) else { return nil }
        guard bytes.count == SessionSecret.byteCount else {
            throw Failure(description: "\(secretPath) holds \(bytes.count) bytes, not a secret of \(SessionSecret.byteCount): remove it to make a new one (everyone is signed out)")
        }
        return bytes
    }

    /// The file's bytes, or nil when there is no such file.
    private func contents(of path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot read", path)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read", path) }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// Writes `bytes` to a new file (0600) beside `path` and renames it over `path`: readers see the
    /// old file or the new one, never a part.
    private func replace(_ path: String, with bytes: [UInt8]) throws {
        let temporary = path + ".\(getpid()).new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot write", temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write", temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        // On disk before it replaces the old file: a crash must not leave an empty secret.
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let error = failure("cannot write", path)
            unlink(temporary)
            throw error
        }
    }

    /// Runs `body` holding the folder's lock (made, with the folder, when missing).
    private func locked<T>(_ body: () throws -> T) throws -> T {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(description: "cannot make the folder \(directory): \(error.localizedDescription)")
        }
        let lockPath = directory + "/lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open", lockPath) }
        // Closing the descriptor releases the lock.
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("cannot lock", lockPath) }
        }
        return try body()
    }

    private func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
