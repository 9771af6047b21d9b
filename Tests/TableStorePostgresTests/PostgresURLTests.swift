import Foundation
import HostileTextSupport
import PropertyBased
import Testing
@testable import TableStorePostgres

// One URL type for `serve --postgres` and `serve --database postgresql://…`: the cases of both.
@Suite("PostgresURL", .shrinking(false))
struct PostgresURLTests {
    @Test("A URL's parts, with the port, database and TLS defaults")
    func parts() throws {
        let url = try PostgresURL("postgresql://app:s3cret@db.internal/tables", environment: [:])
        #expect(url.host == "db.internal")
        #expect(url.port == 5432)
        #expect(url.username == "app")
        #expect(url.password == "s3cret")
        #expect(url.database == "tables")
        #expect(url.tlsMode == .prefer)
        #expect(url.description == "postgresql://app@db.internal:5432/tables", "the password stays out of logs")
        #expect(try PostgresURL("postgresql://app@db/x", defaultTLSMode: .disable, environment: [:]).tlsMode == .disable)
    }

    @Test("A percent-encoded password, libpq's defaults, an IPv6 address")
    func libpqForms() throws {
        let url = try PostgresURL("postgresql://me:p%40ss@db.example:6543/shop", environment: [:])
        #expect((url.username, url.password, url.host, url.port, url.database, url.socketDirectory) == ("me", "p@ss", "db.example", 6543, "shop", nil))
        #expect(url.description == "postgresql://me@db.example:6543/shop", "the password stays out of logs")
        let v6 = try PostgresURL("postgresql://me@[::1]:5433/x", environment: [:])
        #expect(v6.host == "::1" && v6.description == "postgresql://me@[::1]:5433/x")
    }

    @Test("The user and password from PGUSER and PGPASSWORD, else the user postgres; the URL's win")
    func environment() throws {
        let bare = try PostgresURL("postgres://localhost", environment: ["PGUSER": "ann", "PGPASSWORD": "pw"])
        #expect((bare.username, bare.password, bare.port, bare.database) == ("ann", "pw", 5432, "ann"))
        let unnamed = try PostgresURL("postgresql://db.internal/x", environment: [:])
        #expect((unnamed.username, unnamed.password) == ("postgres", nil))
        let named = try PostgresURL("postgresql://bob:secret@db/x", environment: ["PGUSER": "ann", "PGPASSWORD": "pw"])
        #expect((named.username, named.password) == ("bob", "secret"))
        let query = try PostgresURL("postgresql://db/x?user=carol&password=p%2Fw", environment: ["PGUSER": "ann"])
        #expect((query.username, query.password) == ("carol", "p/w"))
    }

    @Test("A port, sslmode, and the user's name as the database when none is given")
    func options() throws {
        let url = try PostgresURL("postgres://postgres@127.0.0.1:6543?sslmode=disable", environment: [:])
        #expect(url.port == 6543)
        #expect(url.database == "postgres")
        #expect(url.tlsMode == .disable)
        #expect(try PostgresURL("postgresql://a@h/d?sslmode=allow", environment: [:]).tlsMode == .disable)
        #expect(try PostgresURL("postgresql://a@h/d?sslmode=prefer", defaultTLSMode: .disable, environment: [:]).tlsMode == .prefer)
        #expect(try PostgresURL("postgresql://a@h/d?application_name=x", environment: [:]).host == "h")
    }

    @Test("sslmode=require makes TLS a condition of connecting")
    func requireTLS() throws {
        let url = try PostgresURL("postgresql://a@h/d?sslmode=require", defaultTLSMode: .disable, environment: [:])
        #expect(url.tlsMode == .require)
        let tls = try url.connectionConfiguration(applicationName: "test").tls
        #expect(tls.isAllowed && tls.isEnforced)
        let disabled = try PostgresURL("postgresql://a@h/d?sslmode=disable", environment: [:]).connectionConfiguration(applicationName: "test").tls
        #expect(!disabled.isAllowed)
    }

    @Test("A Unix socket directory given as ?host=")
    func socket() throws {
        let url = try PostgresURL("postgresql://postgres@/tables?host=/tmp/pg&port=5433", environment: [:])
        #expect(url.host == nil)
        #expect(url.socketDirectory == "/tmp/pg")
        #expect(url.port == 5433)
        #expect(try url.clientConfiguration().unixSocketPath == "/tmp/pg/.s.PGSQL.5433")
        #expect(url.description == "postgresql://postgres@/tables?host=/tmp/pg&port=5433")
        let other = try PostgresURL("postgresql://me@/shop?host=/run/postgresql", environment: [:])
        #expect(other.socketDirectory == "/run/postgresql" && other.host == nil)
        #expect(other.description == "postgresql://me@/shop?host=/run/postgresql")
    }

    @Test("A leading byte-order mark survives decoding (Foundation's would drop it)")
    func byteOrderMark() throws {
        let url = try PostgresURL("postgresql://%EF%BB%BFme:%EF%BB%BFpw@h/%EF%BB%BFdb", environment: [:])
        #expect(url.username == "\u{FEFF}me")
        #expect(url.password == "\u{FEFF}pw")
        #expect(url.database == "\u{FEFF}db")
        #expect(try PostgresURL("postgresql://a@h/d?password=%EF%BB%BFpw", environment: [:]).password == "\u{FEFF}pw")
    }

    // `%FF` is not UTF-8. (A `%` without two hex digits never reaches the decoder: URLComponents
    // re-encodes it as `%25`, so it reads as itself.)
    @Test("What the URL cannot mean is refused, saying why", arguments: [
        "mysql://app@db/x", "tables.sqlite", "shop.sqlite", "postgresql://app@/x", "postgresql:///shop",
        "postgresql://app@db/x?sslmode=maybe", "postgresql://h/db?sslmode=verify-full",
        "postgresql://h/db?options=-csearch_path%3Dx", "postgresql://h/db?port=x", "postgresql://a:%FF@h/d",
    ])
    func refused(text: String) {
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL(text, environment: [:]) }
    }

    @Test("A refusal does not show the password")
    func redacted() {
        for text in ["mysql://app:s3cret@db/x", "postgresql://app:s3cret@/x", "postgresql://app:s3cret@db/x?sslmode=maybe"] {
            do {
                _ = try PostgresURL(text, environment: [:])
                Issue.record("\(text) was accepted")
            } catch {
                #expect(!"\(error)".contains("s3cret"), "\(error)")
            }
        }
    }

    @Test("Any user, password and database name, percent-encoded, reads back as itself")
    func anyNames() async {
        await propertyCheckFailingOnThrow(input: HostileText.text.array(of: 3)) { parts in
            // URLComponents cannot carry NUL or lone surrogates; PostgreSQL names cannot hold NUL either.
            let names = parts.map { $0.replacingOccurrences(of: "\0", with: "") }
            guard !names[0].isEmpty, !names[2].isEmpty else { return }
            var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
            allowed.insert(charactersIn: "-._~")
            let encoded = names.map { $0.addingPercentEncoding(withAllowedCharacters: allowed)! }
            let url = try PostgresURL("postgresql://\(encoded[0]):\(encoded[1])@localhost:5432/\(encoded[2])", environment: [:])
            #expect(url.username == names[0])
            #expect(url.password == names[1])
            #expect(url.database == names[2])
        }
    }
}
