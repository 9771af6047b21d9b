import Foundation
import TablePages
import TablePagesDatabase
import Testing

@Suite("SQLite credential store")
struct SQLiteCredentialStoreTests {
    static func withFile(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "tablepages-credentials-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test("The secret outlives the store (a restart keeps sessions); rotating replaces it; the file is the owner's only")
    func secretPersistsAndRotates() throws {
        try Self.withFile { path in
            let first = try SQLiteCredentialStore(path: path).sessionSecret()
            #expect(first.count == SessionSecret.byteCount)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let reopened = try SQLiteCredentialStore(path: path)
            #expect(try reopened.sessionSecret() == first)
            let rotated = try reopened.rotateSessionSecret()
            #expect(rotated != first)
            #expect(try SQLiteCredentialStore(path: path).sessionSecret() == rotated)
        }
    }

    @Test("Tokens are kept by hash only, listed with their rights, refused twice under one name, and revoked")
    func tokensAreStoredHashedAndRevoked() throws {
        try Self.withFile { path in
            let store = try SQLiteCredentialStore(path: path)
            let token = try AccessTokens.create(name: "backup", mayWrite: true, pages: ["todo", "notes"], in: store)
            _ = try AccessTokens.create(name: "reader", mayWrite: false, pages: nil, in: store)
            #expect(throws: SQLiteCredentialStore.TokenExists.self) { try AccessTokens.create(name: "backup", mayWrite: false, pages: nil, in: store) }
            let listed = try SQLiteCredentialStore(path: path).tokens()
            #expect(listed.map(\.name) == ["backup", "reader"])
            #expect(listed[0].hash == AccessTokens.hash(token) && listed[0].mayWrite && listed[0].pages == ["todo", "notes"])
            #expect(!listed[1].mayWrite && listed[1].pages == nil)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(token.utf8)) == nil, "the token itself must never be stored")
            #expect(try store.revokeToken(named: "backup"))
            #expect(try !store.revokeToken(named: "backup"))
            #expect(try store.tokens().map(\.name) == ["reader"])
        }
    }
}
