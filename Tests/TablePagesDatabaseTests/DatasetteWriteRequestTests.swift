import Foundation
import HostileTextSupport
import PropertyBased
import TableKit
import TableStore
@testable import TablePagesTestSupport
import Testing
@testable import TablePagesDatabase

@Suite("Datasette write API bodies")
struct DatasetteWriteRequestTests {
    private func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("Any text, as a column name and as a value, is stored exactly as sent, or refused naming its column when it holds U+0000")
    func hostileTextRoundTrips() async {
        await propertyCheckFailingOnThrow(input: HostileText.text, HostileText.text) { column, value in
            let json = "{\"row\": {" + DatasetteWriteRequest.pythonJSON(.string(column)) + ": " + DatasetteWriteRequest.pythonJSON(.string(value)) + "}}"
            guard !value.utf8.contains(0) else {
                #expect(throws: DatasetteWriteRequest.Refusal(DatasetteWriteRequest.nulRefusal(column: column))) {
                    try DatasetteWriteRequest.insert(body(json), pks: ["id"], columns: [column], upsert: false, maxRows: 100)
                }
                return
            }
            let insert = try DatasetteWriteRequest.insert(body(json), pks: ["id"], columns: [column], upsert: false, maxRows: 100)
            #expect(insert.rows == [DatasetteWriteRequest.Row(columns: [column], values: [.text(value)], kinds: [.text])])
            #expect(insert.returnsRows, "a single row is returned, as Datasette returns it")
        }
    }

    @Test("Text holding U+0000 is refused in any row, update or create, naming the column; as bytes it is stored")
    func nulInTextIsRefused() throws {
        let refusal = DatasetteWriteRequest.Refusal(#"Text in column "name" holds the character U+0000 (NUL), which cannot be stored as text; send it as bytes: {"$base64": true, "encoded": …}"#)
        #expect(throws: refusal) { try DatasetteWriteRequest.insert(body(#"{"rows": [{"name": "ok"}, {"name": "a\u0000b"}]}"#), pks: ["id"], columns: ["name"], upsert: false, maxRows: 100) }
        #expect(throws: refusal) { try DatasetteWriteRequest.update(body(#"{"update": {"name": "\u0000"}}"#)) }
        #expect(throws: refusal) { try DatasetteWriteRequest.create(body(#"{"table": "t", "rows": [{"name": "\u0000"}]}"#), maxRows: 100) }
        let bytes = try DatasetteWriteRequest.insert(body(#"{"row": {"name": {"$base64": true, "encoded": "YQBi"}}}"#), pks: ["id"], columns: ["name"], upsert: false, maxRows: 100)
        #expect(bytes.rows.first?.values == [.blob(Data([0x61, 0, 0x62]))])
    }

    @Test("Any bytes are JSON or refused in Datasette's words, never a crash")
    func arbitraryBytes() async {
        let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...40)
        let pieces = Gen.element(of: ["{", "}", "[", "]", "\"", ":", ",", "1", "-", "0", ".", "e", "true", "null", "\\u", "\\", "\"a\"", " ", "\n", "\u{1F415}"])
            .map { $0 ?? "" }.array(of: 0...30).map { $0.joined() }
        await propertyCheckFailingOnThrow(input: bytes, pieces) { bytes, piece in
            for input in [bytes, Array(piece.utf8)] {
                do throws(DatasetteJSONBody.Invalid) {
                    _ = try DatasetteJSONBody.parse(input)
                } catch {
                    #expect(error.message.hasPrefix("Invalid JSON: ") && error.message.hasSuffix(")"))
                    #expect(error.line >= 1 && error.column >= 1 && error.character <= input.count)
                }
            }
        }
    }

    @Test("Objects keep their members' order; numbers keep their kind; a repeated key keeps its last value")
    func parsing() throws {
        let value = try DatasetteJSONBody.parse(body(#"{"b": 1, "a": [1.5, -0, 1e2, true, null, "\u00e9\ud83d\udc15"], "b": 2}"#))
        #expect(value == .object([
            JSONProperty(name: "b", value: .integer(2)),
            JSONProperty(name: "a", value: .array([.number(1.5), .integer(0), .number(100), .bool(true), .null, .string("é🐕")])),
        ]))
        for refused in ["", "01", "[1,]", "{\"a\" 1}", "\"\u{01}\"", "nul", "1 2", "[" + String(repeating: "[", count: 70) + "]"] {
            #expect(throws: DatasetteJSONBody.Invalid.self, "\(refused)") { try DatasetteJSONBody.parse(body(refused)) }
        }
    }

    @Test("Python's json words and position: line, column, character")
    func invalidJSONMessage() {
        #expect(throws: DatasetteJSONBody.Invalid(reason: "Expecting property name enclosed in double quotes", offset: 1, line: 1, column: 2, character: 1)) {
            try DatasetteJSONBody.parse(body("{not json"))
        }
        #expect(throws: DatasetteJSONBody.Invalid(reason: "Expecting ',' delimiter", offset: 27, line: 2, column: 2, character: 26)) {
            try DatasetteJSONBody.parse(body("{\"rows\": [{\"name\": \"é\"}]\n x"))
        }
    }

    @Test("Each of Datasette's refusals of an insert, in its words and order")
    func insertRefusals() {
        let cases: [(String, [String])] = [
            ("[1]", ["JSON must be a dictionary"]),
            ("{}", [#"JSON must have one or other of "row" or "rows""#]),
            (#"{"row": {}, "rows": []}"#, [#"Cannot use "row" and "rows" at the same time"#]),
            (#"{"rows": {}}"#, [#""rows" must be a list"#]),
            (#"{"rows": [1]}"#, [#""rows" must be a list of dictionaries"#]),
            (#"{"rows": [{"a": 1}], "z": 1, "y": 2}"#, [#"Invalid parameter: "y", "z""#]),
            (#"{"rows": [{"a": 1}], "ignore": true, "replace": 1}"#, [#"Cannot use "ignore" and "replace" at the same time"#]),
            (#"{"rows": [{"b": 1}, {"a": 1, "c": 2, "b": 3}]}"#, ["Row 0 has invalid columns: b", "Row 1 has invalid columns: b, c"]),
            (#"{"rows": [{"a": 1}, {"a": 1}, {"a": 1}]}"#, ["Too many rows, maximum allowed is 2"]),
        ]
        for (json, messages) in cases {
            #expect(throws: DatasetteWriteRequest.Refusal(messages), "\(json)") {
                try DatasetteWriteRequest.insert(body(json), pks: ["id"], columns: ["a"], upsert: false, maxRows: 2)
            }
        }
        #expect(throws: DatasetteWriteRequest.Refusal([#"Row 0 is missing primary key column(s): "id""#, #"Row 1 has null primary key column(s): "id""#])) {
            try DatasetteWriteRequest.insert(body(#"{"rows": [{"a": 1}, {"id": null}]}"#), pks: ["id"], columns: ["a"], upsert: true, maxRows: 2)
        }
        #expect(throws: DatasetteWriteRequest.Refusal("Upsert does not support ignore or replace")) {
            try DatasetteWriteRequest.insert(body(#"{"rows": [{"id": 1}], "ignore": true}"#), pks: ["id"], columns: ["a"], upsert: true, maxRows: 2)
        }
    }

    @Test("Values are stored as Datasette stores them: booleans as 1 and 0, lists as their JSON, $base64 as bytes")
    func storedValues() throws {
        let insert = try DatasetteWriteRequest.insert(
            body(#"{"rows": [{"a": true, "b": [1, {"x": "é"}], "c": {"$base64": true, "encoded": "AAE="}, "d": {"$raw": 2.5}, "e": {"k": null}}], "alter": true}"#),
            pks: [], columns: [], upsert: false, maxRows: 10
        )
        #expect(insert.rows[0].values == [.integer(1), .text(#"[1, {"x": "\u00e9"}]"#), .blob(Data([0, 1])), .real(2.5), .text(#"{"k": null}"#)])
        #expect(throws: DatasetteWriteRequest.Refusal("Invalid $base64 encoded value")) {
            try DatasetteWriteRequest.insert(body(#"{"row": {"c": {"$base64": true, "encoded": "!!"}}}"#), pks: [], columns: ["c"], upsert: false, maxRows: 10)
        }
    }

    @Test("A create is checked in Datasette's order")
    func createRefusals() throws {
        let cases: [(String, String)] = [
            (#"{"rows": [{"a": 1}]}"#, "Table is required"),
            (#"{"table": "t"}"#, "columns, rows or row is required"),
            (#"{"table": "sqlite_x", "columns": [{"name": "a"}]}"#, "Invalid table name"),
            (#"{"table": "t", "columns": [{"name": "a", "type": "date"}]}"#, "Unsupported column type: date"),
            (#"{"table": "t", "columns": [{"name": "a"}], "rows": [{"a": 1}]}"#, "Cannot specify columns with rows or row"),
            (#"{"table": "t", "columns": [{"name": "a"}, {"name": "a"}]}"#, "Duplicate column name: a"),
            (#"{"table": "t", "rows": [{"a": 1}], "ignore": true}"#, "ignore and replace require pk or pks"),
            (#"{"table": "t", "columns": [{"name": "a"}], "extra": 1}"#, "Invalid keys: extra"),
        ]
        for (json, message) in cases {
            #expect(throws: DatasetteWriteRequest.Refusal(message), "\(json)") { try DatasetteWriteRequest.create(body(json), maxRows: 10) }
        }
        let create = try DatasetteWriteRequest.create(body(#"{"table": "t", "rows": [{"id": 1, "w": 0.5}, {"id": 2, "w": 1, "n": null}], "pk": "id"}"#), maxRows: 10)
        let columns = DatasetteWriter.suggestedColumns(create.rows ?? []).map { DatasetteTableDefinition.Column(name: $0.0, type: $0.1) }
        #expect(DatasetteTableDefinition(table: create.table, columns: columns, pks: create.pks).sql
            == "CREATE TABLE \"t\" (\n   \"id\" INTEGER PRIMARY KEY,\n   \"w\" REAL,\n   \"n\" TEXT\n)")
    }

    @Test("A column's default, default expression and foreign key are read, and their mistakes listed as Datasette lists them")
    func columnOptions() throws {
        let expressions = "'current_timestamp', 'current_date', 'current_time', 'current_unixtime' or 'current_unixtime_ms'"
        let cases: [(String, [String])] = [
            (#"{"table": "t", "columns": [{"name": "a", "default": 1, "default_expr": "current_date"}]}"#,
             ["columns.0: Value error, default and default_expr cannot both be provided"]),
            (#"{"table": "t", "columns": [{"name": "a", "default_expr": null}]}"#, ["columns.0: Value error, default_expr cannot be null"]),
            (#"{"table": "t", "columns": [{"name": "a", "default_expr": "CURRENT_DATE"}, {"name": "b", "default_expr": 5}]}"#,
             ["columns.0.default_expr: Input should be \(expressions)", "columns.1.default_expr: Input should be a valid string"]),
            (#"{"table": "t", "columns": [{"name": "a", "not_null": "zz", "fk_table": 5, "x": 1}]}"#,
             ["columns.0.fk_table: Input should be a valid string", "columns.0.not_null: Input should be a valid boolean, unable to interpret input",
              "columns.0.x: Extra inputs are not permitted"]),
            (#"{"table": "t", "columns": [{"name": "a", "type": "bad"}, {"name": "b", "fk_column": "id"}]}"#,
             ["Unsupported column type: bad", "columns.1: fk_column requires fk_table"]),
        ]
        for (json, messages) in cases {
            #expect(throws: DatasetteWriteRequest.Refusal(messages), "\(json)") { try DatasetteWriteRequest.create(body(json), maxRows: 10) }
        }
        let create = try DatasetteWriteRequest.create(body(#"""
            {"table": "t", "columns": [{"name": "a", "default": "it's", "fk_table": "people"}, {"name": "b", "default_expr": "current_unixtime", "fk_table": "x", "fk_column": "y"},
             {"name": "c", "default": null, "fk_table": ""}]}
            """#), maxRows: 10)
        #expect(create.columns == [
            .init(name: "a", type: "TEXT", notNull: false, defaultValue: .string("it's"), foreignTable: "people"),
            .init(name: "b", type: "TEXT", notNull: false, defaultExpression: "(CAST(strftime('%s', 'now') AS INTEGER))", foreignTable: "x", foreignColumn: "y"),
            .init(name: "c", type: "TEXT", notNull: false),
        ])
    }

    @Test("A created table's defaults are quoted and its foreign keys resolved as sqlite-utils does")
    func tableDefinition() throws {
        let database = try TestDatabase { db in
            try db.execute(sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE loose (name TEXT); CREATE TABLE Pets (Code TEXT PRIMARY KEY)")
        }
        defer { database.remove() }
        let store = try Store.openExisting(path: database.path, writable: true)
        func sql(_ json: String) throws -> String {
            let create = try DatasetteWriteRequest.create(body(json), maxRows: 10)
            return try store.read { db in try DatasetteTableDefinition.resolving(create.columns ?? [], table: create.table, pks: create.pks, in: db).sql }
        }
        func refusal(_ json: String) -> String? {
            do {
                _ = try sql(json)
                return nil
            } catch {
                return (error as? DatasetteWriter.Refused)?.message
            }
        }
        #expect(try sql(#"""
            {"table": "t", "columns": [{"name": "a", "default": "it's", "not_null": true, "fk_table": "people"}, {"name": "b", "type": "float", "default": 1e20},
             {"name": "c", "type": "integer", "default": true}, {"name": "d", "default_expr": "current_unixtime_ms", "fk_table": "t", "fk_column": "A"}], "pk": "id"}
            """#) == #"""
            CREATE TABLE "t" (
               "id" INTEGER PRIMARY KEY,
               "a" TEXT NOT NULL DEFAULT 'it''s' REFERENCES "people"("id"),
               "b" REAL DEFAULT 1.0e+20,
               "c" INTEGER DEFAULT 1,
               "d" TEXT DEFAULT ((CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))) REFERENCES "t"("a")
            )
            """#, "defaults quoted by SQLite, a key's column guessed, a self-reference's spelling resolved")
        #expect(try sql(#"{"table": "t", "columns": [{"name": "a", "default_expr": "current_timestamp", "fk_table": "loose", "fk_column": "rowid"}]}"#)
            == "CREATE TABLE \"t\" (\n   \"a\" TEXT DEFAULT CURRENT_TIMESTAMP REFERENCES \"loose\"(\"rowid\")\n)")
        #expect(refusal(#"{"table": "t", "columns": [{"name": "a", "fk_table": "loose"}]}"#) == "Could not detect single primary key for table 'loose'")
        #expect(refusal(#"{"table": "t", "columns": [{"name": "a", "fk_table": "pets"}]}"#) == "Could not detect single primary key for table 'pets'", "a table is found by its exact name")
        #expect(refusal(#"{"table": "t", "columns": [{"name": "a", "fk_table": "people", "fk_column": "nope"}]}"#) == "No such column: people.nope")
        #expect(refusal(#"{"table": "t", "columns": [{"name": "a", "default": [1], "fk_table": "nosuch"}]}"#) == "Could not detect single primary key for table 'nosuch'",
                "keys are resolved before defaults are quoted")
        #expect(refusal(#"{"table": "t", "columns": [{"name": "a", "default": [1]}]}"#) == "Error binding parameter 1: type 'list' is not supported")
    }

    @Test("Record-not-found keys are written as Python's repr writes them")
    func pythonRepr() {
        #expect(DatasetteWriteAPI.pythonRepr("999") == "'999'")
        #expect(DatasetteWriteAPI.pythonRepr("it's") == "\"it's\"")
        #expect(DatasetteWriteAPI.pythonRepr("a'b\"c\\\n") == "'a\\'b\"c\\\\\\n'")
        #expect(DatasetteWriteAPI.pythonRepr("\u{01}é") == "'\\x01é'")
    }
}
