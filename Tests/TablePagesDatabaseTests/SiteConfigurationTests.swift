import Foundation
@testable import TablePagesDatabase
import Testing

@Suite struct SiteConfigurationTests {
    static func parse(_ text: String) throws -> SiteConfiguration {
        try SiteConfiguration.parse(Data(text.utf8), path: "site.json")
    }

    static func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func readsTablesAndQueries() throws {
        let configuration = try Self.parse("""
            {"tables": {"orders": {"title": "Orders", "description": "One a row", "label_column": "code", "hidden": true}, "customer": {}},
             "queries": {"z_last": {"sql": "select 2"}, "by_status": {"title": "By status", "description": "Counts", "sql": "select :status"}}}
            """)
        #expect(configuration.tables["orders"] == TableConfiguration(title: "Orders", description: "One a row", labelColumn: "code", hidden: true))
        #expect(configuration.tables["customer"] == TableConfiguration())
        #expect(configuration.queries == [
            CannedQuery(name: "by_status", title: "By status", description: "Counts", sql: "select :status"),
            CannedQuery(name: "z_last", sql: "select 2"),
        ])
        #expect(try Self.parse("{}") == SiteConfiguration())
    }

    @Test func mistakesNameTheFileAndTheKeyOrLine() throws {
        let cases: [(text: String, says: String)] = [
            (#"{"tables": {"orders": {"lable_column": "x"}}}"#, "--config site.json: tables.orders.lable_column: unknown key \u{201C}lable_column\u{201D}"),
            (#"{"table": {}}"#, "--config site.json: table: unknown key"),
            (#"{"queries": {"q": {"title": "x"}}}"#, "--config site.json: queries.q.sql: missing"),
            (#"{"queries": {"q": {"sql": "x", "params": []}}}"#, "--config site.json: queries.q.params: unknown key"),
            (#"{"tables": {"orders": {"hidden": "yes"}}}"#, "--config site.json: tables.orders.hidden: should be true or false"),
            (#"{"tables": {"orders": {"title": 3}}}"#, "--config site.json: tables.orders.title: should be text"),
            (#"{"tables": []}"#, "--config site.json: tables: should be an object"),
            ("{\n  \"tables\": {\n    \"orders\" {}\n  }\n}", "--config site.json: line 3, column 14: is not valid JSON"),
            (#"{"queries": {"": {"sql": "select 1"}}}"#, "a query needs a name"),
        ]
        for (text, says) in cases {
            let message = Self.error(text)
            #expect(message?.contains(says) == true, "\(text): \(message ?? "accepted")")
        }
    }

    @Test func tablesTheDatabaseLacksAreNamed() throws {
        let configuration = try Self.parse(#"{"tables": {"orders": {}, "ordrs": {}}}"#)
        #expect(throws: ConfigurationError(path: "site.json", location: "tables.ordrs", problem: "the database has no table or view of this name")) {
            try configuration.checkTables(against: ["orders", "customer"], path: "site.json")
        }
        try configuration.checkTables(against: ["orders", "ordrs"], path: "site.json")
    }

    @Test func aByteOffsetIsALineAndColumn() {
        let data = Data("ab\ncd\nef".utf8)
        #expect(ConfigurationError.lineAndColumn(in: "Invalid value around character 4.", data: data) == "line 2, column 2")
        #expect(ConfigurationError.lineAndColumn(in: "Unexpected character around line 7, column 9.", data: data) == "line 7, column 9")
        #expect(ConfigurationError.lineAndColumn(in: "Unexpected end of file", data: data) == nil)
    }
}
