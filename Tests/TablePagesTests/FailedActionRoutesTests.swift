import GRDB
import HTTPTestSupport
import MicroHTTP
import TableKit
@testable import TablePages
@testable import TablePagesTestSupport
import Testing

/// One action of the `faulty` page as a script sends it and as an HTML form posts it.
struct FaultyRequest: Sendable, CustomTestStringConvertible {
    let name: String
    let method: String
    let path: String
    let json: String
    /// The form post: its path (a form deletes by POST to the row) and its fields.
    let formPath: String
    let form: String
    /// The status of a script's request that succeeds.
    var success = 200

    var testDescription: String { name }

    static let all: [FaultyRequest] = [
        FaultyRequest(name: "select", method: "POST", path: "/pages/faulty/rows/item-2/select", json: "",
                      formPath: "/pages/faulty/rows/item-2/select", form: ""),
        FaultyRequest(name: "rename", method: "POST", path: "/pages/faulty/rows/item-2/actions/rename", json: #"{"title":"Renamed"}"#,
                      formPath: "/pages/faulty/rows/item-2/actions/rename", form: "title=Renamed"),
        FaultyRequest(name: "delete", method: "DELETE", path: "/pages/faulty/rows/item-2", json: "",
                      formPath: "/pages/faulty/rows/item-2", form: "_method=DELETE"),
        FaultyRequest(name: "move", method: "POST", path: "/pages/faulty/rows/item-2/move", json: #"{"section":"items","before":"item-1"}"#,
                      formPath: "/pages/faulty/rows/item-2/move", form: "section=items&before=item-1"),
        FaultyRequest(name: "insert a row into", method: "POST", path: "/pages/faulty/sections/items/rows", json: #"{"title":"Milk"}"#,
                      formPath: "/pages/faulty/sections/items/rows", form: "title=Milk", success: 201),
    ]

    /// Sends the script's request.
    func sendJSON(_ connection: TestConnection) async throws -> TestResponse {
        try await connection.request(method, path, headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: Array(json.utf8))
    }

    /// Posts the form as a browser does.
    func sendForm(_ connection: TestConnection) async throws -> TestResponse {
        try await connection.request(
            "POST", formPath,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")],
            body: Array(form.utf8)
        )
    }
}

@Suite("Actions whose store fails")
struct FailedActionRoutesTests {
    /// SQLite's "database is locked", with SQL and an argument a client must not see.
    static let busy = DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked", sql: "UPDATE secret_table SET title = ?", arguments: ["hidden"])

    @Test("A busy store: 503 with Retry-After for scripts, an error page for forms, no patch, the page unchanged; released, the action succeeds",
          arguments: FaultyRequest.all)
    func busyStoreFailsTheRequestAndPublishesNothing(_ action: FaultyRequest) async throws {
        let fault = TestStoreFault()
        try await withSite(pages: TestPages.faultyRegistry(fault: fault)) { server, _ in
            let client = try await TestConnection(port: server.port)
            let before = try await client.request("GET", "/pages/faulty.json").text
            let version = try await pageVersion(client, "/pages/faulty.json")
            let stream = try await TestConnection(port: server.port)
            _ = try await stream.openStream("/pages/faulty/events?format=json")
            _ = try await stream.readStream(until: { $0.contains("retry:") })

            fault.set(Self.busy)
            let script = try await action.sendJSON(client)
            #expect(script.status == 503)
            #expect(script.header("Retry-After") == "1")
            #expect(script.header("Content-Type") == "application/json; charset=utf-8")
            #expect(script.text.hasPrefix(#"{"error":{"status":503,"message":"Could not \#(action.name) "#))
            #expect(script.text.contains("Nothing was changed"))
            #expect(!script.text.contains("secret_table") && !script.text.contains("hidden"))

            let form = try await action.sendForm(client)
            #expect(form.status == 503)
            #expect(form.header("Location") == nil, "a failed form post must not redirect as if it had worked")
            #expect(form.header("Content-Type") == "text/html; charset=utf-8")
            #expect(form.text.contains("<h1>503 Service Unavailable</h1>"))
            #expect(form.text.contains("Could not \(action.name) "))

            #expect(try await client.request("GET", "/pages/faulty.json").text == before)

            fault.set(nil)
            let retried = try await action.sendJSON(client)
            #expect(retried.status == action.success)
            // The first event the subscriber receives is the one for the action that succeeded.
            let received = try await stream.readStream(until: { !events(in: $0).isEmpty })
            let first = try #require(events(in: received).first)
            #expect(eventID(first) == version + 1)
            #expect(first.contains("event: patch\n"))
        }
    }

    @Test("Another database failure is a 500 that names SQLite's result code but no SQL; any other error a plain 500")
    func otherFailuresAre500WithoutInternals() async throws {
        let fault = TestStoreFault()
        try await withSite(pages: TestPages.faultyRegistry(fault: fault)) { server, _ in
            let client = try await TestConnection(port: server.port)
            let select = FaultyRequest.all[0]

            fault.set(DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database", sql: "UPDATE secret_table SET done = 1"))
            let readOnly = try await select.sendJSON(client)
            #expect(readOnly.status == 500)
            #expect(readOnly.header("Retry-After") == nil)
            #expect(readOnly.text.contains("Could not select row \u{201C}item-2\u{201D}: the database refused the change (SQLite error 8 (attempt to write a readonly database))"))
            #expect(!readOnly.text.contains("secret_table"))

            struct DiskFailure: Error, CustomStringConvertible {
                var description: String { "/var/lib/secret/tablepages.sqlite: no space" }
            }
            fault.set(DiskFailure())
            let other = try await select.sendJSON(client)
            #expect(other.status == 500)
            #expect(other.text.contains("the page could not make the change. Nothing was changed."))
            #expect(!other.text.contains("/var/lib"))
        }
    }

    @Test("A client error a delegate throws reaches the client as it is")
    func delegateHTTPErrorPassesThrough() async throws {
        let fault = TestStoreFault()
        try await withSite(pages: TestPages.faultyRegistry(fault: fault)) { server, _ in
            let client = try await TestConnection(port: server.port)
            fault.set(HTTPError(422, "Titles must not be empty."))
            let response = try await FaultyRequest.all[1].sendJSON(client)
            #expect(response.status == 422)
            #expect(response.text == #"{"error":{"status":422,"message":"Titles must not be empty."}}"#)
        }
    }

    @Test("An error a delegate lets through answers as its protocol says: HTTPErrorConvertible as it is, a DatabaseWriteError busy or refused")
    func errorProtocolsAnswerWithoutTheDatabaseModule() async throws {
        struct QuotaExceeded: HTTPErrorConvertible {
            var httpError: HTTPError { HTTPError(429, "Too many renames today.", headers: ["Retry-After": "60"]) }
        }
        struct QueueError: DatabaseWriteError {
            let isBusyWithAnotherWriter: Bool
            var summaryForClients: String { "queue error 7 (full)" }
        }
        let fault = TestStoreFault()
        try await withSite(pages: TestPages.faultyRegistry(fault: fault)) { server, _ in
            let client = try await TestConnection(port: server.port)
            let rename = FaultyRequest.all[1]

            fault.set(QuotaExceeded())
            let quota = try await rename.sendJSON(client)
            #expect(quota.status == 429)
            #expect(quota.header("Retry-After") == "60")
            #expect(quota.text == #"{"error":{"status":429,"message":"Too many renames today."}}"#)

            fault.set(QueueError(isBusyWithAnotherWriter: true))
            let busy = try await rename.sendJSON(client)
            #expect(busy.status == 503)
            #expect(busy.header("Retry-After") == String(ActionFailure.busyRetryAfter))
            #expect(busy.text.contains("Could not rename row \u{201C}item-2\u{201D}: the database is busy with another write."))

            fault.set(QueueError(isBusyWithAnotherWriter: false))
            let refused = try await rename.sendJSON(client)
            #expect(refused.status == 500)
            #expect(refused.text.contains("Could not rename row \u{201C}item-2\u{201D}: the database refused the change (queue error 7 (full)). Nothing was changed."))
        }
    }

    @Test("A to-do move the database refuses (a writer holds BEGIN IMMEDIATE) answers 503 and keeps the list's order")
    func refusedTodoMoveKeepsTheOrder() async throws {
        try await withExampleDatabase { file in
            try await withExampleSite(file: file) { server, _ in
                let client = try await TestConnection(port: server.port)
                let before = try rowIDs(inPageJSON: try await client.request("GET", "/pages/todo.json").text)
                // Another writer, like a `sqlite3` shell, holding the write lock across calls.
                var configuration = Configuration()
                configuration.allowsUnsafeTransactions = true
                let holder = try DatabaseQueue(path: file.path, configuration: configuration)
                try holder.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
                // The store waits out its busy timeout (5 s) before it gives up.
                let moved = try await client.request(
                    "POST", "/pages/todo/rows/todo-3/move", headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
                    body: Array(#"{"section":"todos","before":"todo-1"}"#.utf8), timeout: .seconds(30)
                )
                try holder.inDatabase { try $0.execute(sql: "ROLLBACK") }
                #expect(moved.status == 503)
                #expect(moved.text.contains("Could not move row \u{201C}todo-3\u{201D}: the database is busy"))
                #expect(!moved.text.contains(file.path))
                #expect(try rowIDs(inPageJSON: try await client.request("GET", "/pages/todo.json").text) == before)
            }
        }
    }

    @Test("Each failure is logged once, at error level, with the page, the action, the row and the cause")
    func failureIsLoggedOnce() async throws {
        let fault = TestStoreFault()
        let log = LogRecorder()
        try await withSite(pages: TestPages.faultyRegistry(fault: fault), logger: log.logger()) { server, _ in
            let client = try await TestConnection(port: server.port)
            fault.set(Self.busy)
            _ = try await FaultyRequest.all[0].sendJSON(client)
            let errors = log.messages(at: .error)
            #expect(errors.count == 1)
            let line = try #require(errors.first)
            #expect(line.contains("page faulty"))
            #expect(line.contains("select row \u{201C}item-2\u{201D} failed"))
            #expect(line.contains("database is locked"))
        }
    }
}
