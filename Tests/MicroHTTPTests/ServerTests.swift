import Dispatch
import HTTPTestSupport
import MicroHTTP
import Testing

@Suite("Server, end to end over a real socket")
struct ServerTests {
    @Test func routesDecodePathParametersAndQuery() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request("GET", "/pages/todo%20list/rows/a%2Fb?q=x+y%26z")
            #expect(response.status == 200)
            #expect(response.text == "todo list|a/b|x y&z")
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let missing = try await connection.request("GET", "/nowhere", headers: [("Accept", "application/json")])
            #expect(missing.status == 404)
            #expect(missing.text.hasPrefix(#"{"error":{"status":404,"message":"#))
            let wrong = try await connection.request("DELETE", "/hello")
            #expect(wrong.status == 405)
            #expect(wrong.header("Allow") == "GET, HEAD, OPTIONS")
            // MicroHTTP's own page is neutral plain text; the site's look is its router's errorPage.
            #expect(wrong.header("Content-Type")?.hasPrefix("text/plain") == true)
        }
    }

    @Test func headAnswersLikeGetWithoutBody() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let head = try await connection.request("HEAD", "/hello")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "5")
            #expect(head.body.isEmpty)
            // The same connection still works: no stray body bytes were sent after the head.
            let get = try await connection.request("GET", "/hello")
            #expect(get.text == "hello")
        }
    }

    @Test func optionsListsAllowedMethods() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let response = try await connection.request("OPTIONS", "/echo")
            #expect(response.status == 204)
            #expect(response.header("Allow") == "POST, OPTIONS")
        }
    }

    @Test func oversizedBodyGets413InTheRespondersErrorPageAndServerStaysHealthy() async throws {
        var router = testRouter()
        router.errorPage = ErrorPage { status, _ in .html("<p>site page \(status)</p>", status: status) }
        try await withServer(router, configure: { $0.maxBodySize = 1024 }) { server in
            let declared = try await TestConnection(port: server.port)
            let refused = try await declared.request("POST", "/echo", body: [UInt8](repeating: 65, count: 4096))
            #expect(refused.status == 413)
            #expect(refused.text == "<p>site page 413</p>")

            let chunked = try await TestConnection(port: server.port)
            let chunk = [UInt8](repeating: 66, count: 800)
            var raw = Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for _ in 0..<3 { raw += Array("320\r\n".utf8) + chunk + [13, 10] }
            raw += Array("0\r\n\r\n".utf8)
            try await chunked.send(raw)
            let refusedWhileReading = try await chunked.readResponse()
            #expect(refusedWhileReading.status == 413)
            #expect(refusedWhileReading.text == "<p>site page 413</p>")

            let healthy = try await TestConnection(port: server.port)
            let echoed = try await healthy.request("POST", "/echo", body: Array("small".utf8))
            #expect(echoed.status == 200)
            #expect(echoed.text == "small")
        }
    }

    @Test func keepAliveAnswersTwoRequestsOnOneConnection() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let first = try await connection.request("GET", "/hello")
            let second = try await connection.request("GET", "/slow")
            #expect(first.status == 200 && second.status == 200)
            #expect(second.text == "waited")
            #expect(first.header("Connection")?.lowercased() != "close")
            #expect(second.header("Connection")?.lowercased() != "close")
        }
    }

    @Test func asyncHandlerAwaitsAndThrownHTTPErrorBecomesItsStatus() async throws {
        try await withServer(testRouter()) { server in
            let connection = try await TestConnection(port: server.port)
            let started = ContinuousClock.now
            let slow = try await connection.request("GET", "/slow")
            #expect(slow.text == "waited")
            #expect(ContinuousClock.now - started >= .milliseconds(100))
            let failed = try await connection.request("GET", "/fail.json")
            #expect(failed.status == 409)
            #expect(failed.text == #"{"error":{"status":409,"message":"conflict here"}}"#)
        }
    }

    @Test("An answer made on a thread of its own answers from there: its response, or its thrown error as a handler's, finished by the router's middleware; the connection stays kept alive")
    func answeredElsewhere() async throws {
        var router = Router()
        router.on(.get, "/elsewhere/:n", answering: { request in
            let n = request.parameters["n"] ?? ""
            return .elsewhere { finish in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                    finish(n == "bad" ? .failure(HTTPError(418, "no tea")) : .success(.text("made \(n)")))
                }
            }
        })
        router.use { request, context, next in
            next(request, context).map { response in
                var response = response
                response.headers["X-Finished"] = "yes"
                return response
            }
        }
        try await withServer(router) { server in
            let connection = try await TestConnection(port: server.port)
            let made = try await connection.request("GET", "/elsewhere/1")
            #expect(made.status == 200 && made.text == "made 1" && made.header("X-Finished") == "yes")
            let refused = try await connection.request("GET", "/elsewhere/bad.json")
            #expect(refused.status == 418 && refused.text == #"{"error":{"status":418,"message":"no tea"}}"#)
            #expect(refused.header("X-Finished") == "yes")
            let again = try await connection.request("GET", "/elsewhere/2")
            #expect(again.text == "made 2" && again.header("Connection")?.lowercased() != "close")
        }
    }

    @Test func twoHundredConcurrentRequestsAreAllAnswered() async throws {
        try await withServer(testRouter()) { server in
            let port = server.port
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let connection = try await TestConnection(port: port)
                        let path = index.isMultiple(of: 2) ? "/slow" : "/hello"
                        return try await connection.request("GET", path, timeout: .seconds(20)).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }
}
