import Testing
@testable import TableStorePostgres

@Suite("PostgresURL")
struct PostgresURLTests {
    @Test("A URL's parts, with the port, database and TLS defaults")
    func parts() throws {
        let url = try PostgresURL("postgresql://app:s3cret@db.internal/tables")
        #expect(url.host == "db.internal")
        #expect(url.port == 5432)
        #expect(url.username == "app")
        #expect(url.password == "s3cret")
        #expect(url.database == "tables")
        #expect(url.tlsMode == .prefer)
        #expect(url.description == "postgresql://app@db.internal:5432/tables", "the password stays out of logs")
    }

    @Test("A port, sslmode, and the user's name as the database when none is given")
    func options() throws {
        let url = try PostgresURL("postgres://postgres@127.0.0.1:6543?sslmode=disable")
        #expect(url.port == 6543)
        #expect(url.database == "postgres")
        #expect(url.tlsMode == .disable)
    }

    @Test("A Unix socket directory given as ?host=")
    func socket() throws {
        let url = try PostgresURL("postgresql://postgres@/tables?host=/tmp/pg&port=5433")
        #expect(url.host == nil)
        #expect(url.socketDirectory == "/tmp/pg")
        #expect(url.port == 5433)
        #expect(try url.clientConfiguration().unixSocketPath == "/tmp/pg/.s.PGSQL.5433")
    }

    @Test("Not a PostgreSQL URL, no user, no host, an unknown sslmode: refused, without the password")
    func invalid() {
        for text in ["mysql://app@db/x", "postgresql://db.internal/x", "postgresql://app@/x", "postgresql://app@db/x?sslmode=maybe", "tables.sqlite"] {
            #expect(throws: PostgresURL.Invalid.self, "\(text)") { try PostgresURL(text) }
        }
        do {
            _ = try PostgresURL("mysql://app:s3cret@db/x")
        } catch {
            #expect(!"\(error)".contains("s3cret"))
        }
    }
}
