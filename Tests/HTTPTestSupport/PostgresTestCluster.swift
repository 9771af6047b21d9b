import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster for one test (`scripts/postgres-cluster`), stopped by ``stop()``.
public struct PostgresTestCluster: Sendable {
    /// The cluster's data directory.
    public let directory: String
    /// Its URL, `postgresql://…`.
    public let url: String
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/postgres-cluster").standardized.path

    /// Starts one; call it off the cooperative pool (it waits for the script).
    public init() throws {
        directory = NSTemporaryDirectory() + "/tablepages-swift-postgres-\(UUID().uuidString)"
        let urlFile = directory + ".url"
        defer { try? FileManager.default.removeItem(atPath: urlFile) }
        // system(3), not Foundation's Process, whose waitUntilExit can hang on Linux once the
        // script's pg_ctl has left a server running.
        guard system("'\(Self.script)' start '\(directory)' > '\(urlFile)'") == 0 else {
            throw CocoaError(.executableLoad)
        }
        url = try String(contentsOfFile: urlFile, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Stops the cluster and removes its directory.
    public func stop() {
        _ = system("'\(Self.script)' stop '\(directory)'")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
