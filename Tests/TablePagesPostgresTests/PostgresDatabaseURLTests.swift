import Foundation
import GRDB
import HostileTextSupport
import PropertyBased
import Testing
@testable import TablePagesPostgres

@Suite("PostgreSQL URLs and values", .shrinking(false))
struct PostgresDatabaseURLTests {
    @Test("A URL's parts, with libpq's defaults")
    func parts() throws {
        let url = try PostgresDatabaseURL("postgresql://me:p%40ss@db.example:6543/shop", environment: [:])
        #expect((url.user, url.password, url.host, url.port, url.database, url.socketDirectory) == ("me", "p@ss", "db.example", 6543, "shop", nil))
        #expect(url.description == "postgresql://me@db.example:6543/shop", "the password stays out of logs")
        let bare = try PostgresDatabaseURL("postgres://localhost", environment: ["PGUSER": "ann", "PGPASSWORD": "pw"])
        #expect((bare.user, bare.password, bare.port, bare.database) == ("ann", "pw", 5432, "ann"))
        let socket = try PostgresDatabaseURL("postgresql://me@/shop?host=/run/postgresql", environment: [:])
        #expect(socket.socketDirectory == "/run/postgresql" && socket.host == nil)
        let v6 = try PostgresDatabaseURL("postgresql://me@[::1]:5433/x", environment: [:])
        #expect(v6.host == "::1" && v6.description == "postgresql://me@[::1]:5433/x")
    }

    @Test("What the URL cannot mean is refused, saying why", arguments: [
        "shop.sqlite", "postgresql:///shop", "postgresql://h/db?sslmode=verify-full", "postgresql://h/db?options=-csearch_path%3Dx",
    ])
    func refused(text: String) {
        #expect(throws: PostgresDatabaseURL.Invalid.self) { try PostgresDatabaseURL(text, environment: [:]) }
    }

    @Test("Any user, password and database name, percent-encoded, reads back as itself")
    func anyNames() async {
        await propertyCheck(input: HostileText.text.array(of: 3)) { parts in
            // URLComponents cannot carry NUL or lone surrogates; PostgreSQL names cannot hold NUL either.
            let names = parts.map { $0.replacingOccurrences(of: "\0", with: "") }
            guard !names[0].isEmpty, !names[2].isEmpty else { return }
            var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
            allowed.insert(charactersIn: "-._~")
            let encoded = names.map { $0.addingPercentEncoding(withAllowedCharacters: allowed)! }
            let url = try PostgresDatabaseURL("postgresql://\(encoded[0]):\(encoded[1])@localhost:5432/\(encoded[2])", environment: [:])
            #expect(url.user == names[0])
            #expect(url.password == names[1])
            #expect(url.database == names[2])
        }
    }

    @Test("A blob binds as bytea's hex text; reals in a spelling PostgreSQL reads back exactly")
    func boundText() async {
        #expect(PostgresValues.text(of: DatabaseValue(value: Data([0x00, 0xab, 0x7f]))!) == "\\x00ab7f")
        #expect(PostgresValues.text(of: .null) == nil)
        await propertyCheck(input: Gen.double(in: -1e300...1e300)) { real in
            let text = try #require(PostgresValues.text(of: real.databaseValue))
            #expect(Double(text) == real)
        }
    }
}
