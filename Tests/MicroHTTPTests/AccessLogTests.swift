import Dispatch
import Foundation
import HTTPTestSupport
import HostileTextSupport
import Logging
import PropertyBased
import Synchronization
import Testing
@testable import MicroHTTP

@Suite("Access log: format, buffering, flushing")
struct AccessLogTests {
    /// 2026-11-22T10:20:35.123Z
    static let time = LogTime(seconds: 1_795_342_835, milliseconds: 123)

    static func entry(path: String, status: Int = 200, microseconds: Int = 1234, peer: String? = "127.0.0.1", actor: String? = nil) -> RequestLog.Entry {
        let start = ContinuousClock.now
        return RequestLog.Entry(
            method: .get, path: path, status: status, startedAt: start, finishedAt: start + .microseconds(microseconds),
            peer: .text(peer), fields: actor.map { [LogField(name: "actor", value: $0)] } ?? []
        )
    }

    static func line(_ entry: RequestLog.Entry, _ format: LogFormat) -> String {
        var line = LogLine(format: format)
        guard case .text(let peer)? = entry.peer else { preconditionFailure("test entries carry their peer as text") }
        RequestLog.append(entry, peer: peer, time: time, label: "tablepages", to: &line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    @Test func aTextLineHasTimeLevelLabelMethodPathStatusDurationAndPeer() {
        #expect(Self.line(Self.entry(path: "/pages/todo"), .text)
            == "2026-11-22T10:20:35.123Z info tablepages: GET /pages/todo 200 1.23ms peer=127.0.0.1\n")
        #expect(Self.line(Self.entry(path: "/x", status: 404, microseconds: 12_345_678, peer: nil, actor: "ada lovelace"), .text)
            == "2026-11-22T10:20:35.123Z info tablepages: GET /x 404 12345.67ms actor=\"ada lovelace\"\n")
    }

    @Test func aJSONLineIsOneObjectWithTheSameFieldsNamed() throws {
        let text = Self.line(Self.entry(path: "/pages/todo", actor: "ada"), .json)
        #expect(text.hasSuffix("}\n"))
        #expect(text.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-11-22T10:20:35.123Z")
        #expect(object["level"] as? String == "info")
        #expect(object["label"] as? String == "tablepages")
        #expect(object["message"] as? String == "GET /pages/todo 200 1.23ms")
        #expect(object["method"] as? String == "GET")
        #expect(object["path"] as? String == "/pages/todo")
        #expect(object["status"] as? Int == 200)
        #expect(object["duration_ms"] as? Double == 1.23)
        #expect(object["peer"] as? String == "127.0.0.1")
        #expect(object["actor"] as? String == "ada")
    }

    @Test func aHostilePathIsEscapedAndStaysOneLine() throws {
        let hostile = "/a\"b\\c\nd\re\u{1B}[31m\u{7F}\u{85}\u{2028}f é"
        let text = Self.line(Self.entry(path: hostile), .text)
        #expect(text == #"2026-11-22T10:20:35.123Z info tablepages: GET /a\"b\\c\nd\re\u001b[31m\u007f\u0085\u2028f é 200 1.23ms peer=127.0.0.1"# + "\n")
        let json = Self.line(Self.entry(path: hostile), .json)
        #expect(json.filter { $0 == "\n" || $0 == "\r\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["path"] as? String == hostile)
    }

    @Test func anyPathGivesOneLineThatReadsBackInJSONAndHasNoControlCharactersInText() async {
        let characters = Gen<Character>.character(in: "\u{0}"..."\u{2100}")
        await propertyCheckFailingOnThrow(input: characters.string(of: 0...40)) { path in
            let json = Self.line(Self.entry(path: path), .json)
            #expect(json.utf8.last == UInt8(ascii: "\n"))
            #expect(json.utf8.dropLast().allSatisfy { $0 >= 0x20 && $0 != 0x7F })
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            #expect(object?["path"] as? String == path)
            let text = Self.line(Self.entry(path: path), .text)
            #expect(text.utf8.last == UInt8(ascii: "\n"))
            #expect(!text.unicodeScalars.dropLast().contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" })
        }
    }

    @Test func everyRequestIsWrittenByTheTimeShutdownReturns() async throws {
        let captured = CapturedLines()
        let count = 150
        try await withServer(testRouter(), logLevel: .info, configure: {
            $0.accessLogOutput = captured.output
            // Only shutdown writes: the lines still buffered then must all come out.
            $0.accessLogFlushInterval = .seconds(3600)
        }) { server in
            let connection = try await TestConnection(port: server.port)
            for n in 0..<count {
                #expect(try await connection.request("GET", "/hello?n=\(n)").status == 200)
            }
            #expect(captured.lines.isEmpty)
            #expect(server.droppedAccessLogLines == 0)
        }
        let lines = captured.lines
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0.contains(" info MicroHTTPTests: GET /hello 200 ") && $0.hasSuffix("peer=127.0.0.1") })
    }

    @Test func linesAreWrittenWithinTheFlushIntervalWithoutShutdown() async throws {
        let captured = CapturedLines()
        try await withServer(testRouter(), logLevel: .info, configure: {
            $0.accessLogOutput = captured.output
            $0.accessLogFormat = .json
            $0.accessLogFlushInterval = .milliseconds(200)
        }) { server in
            #expect(try await TestConnection(port: server.port).request("GET", "/hello").status == 200)
            let deadline = ContinuousClock.now + .seconds(3)
            while captured.lines.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(captured.lines.count == 1)
            #expect(captured.lines.first?.contains(#""path":"/hello","status":200,"#) == true)
        }
    }

    @Test func aFullBufferDropsAndCountsLinesInsteadOfBlocking() async {
        let gate = DispatchSemaphore(value: 0)
        let captured = CapturedLines()
        // The writer blocks on its first batch, as on a stuck pipe, until the gate opens.
        let output = LogOutput { bytes in
            gate.wait()
            captured.output.write(bytes)
        }
        var logger = Logger(label: "test")
        logger.logLevel = .info
        let entry = Self.entry(path: "/p")
        let log = RequestLog(logger: logger, byteLimit: entry.cost * 10, flushInterval: .seconds(3600), output: output)
        let total = 1000
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<total {
                log.record(method: .get, path: "/p", status: 200, startedAt: .now, request: nil)
            }
        }
        #expect(elapsed < .seconds(1), "recording must never wait for the writer")
        gate.signal()
        gate.signal()
        gate.signal()
        await log.flushNow()
        let lines = captured.lines
        let written = lines.filter { $0.contains("GET /p 200") }.count
        #expect(written + log.droppedCount == total)
        #expect(written <= 20, "at most the bound's worth before and after the writer blocked")
        #expect(log.droppedCount >= total - 20)
        // Each flush that found lines dropped says how many; together, all of them.
        let warnings = lines.filter { $0.contains(" warning test: access log: dropped ") }
        #expect(!warnings.isEmpty)
        #expect(warnings.compactMap { $0.split(separator: "dropped=").last.flatMap { Int($0) } }.reduce(0, +) == log.droppedCount)
    }
}

/// Access log lines handed to a ``LogOutput``, kept for a test.
final class CapturedLines: Sendable {
    private let bytes = Mutex<[UInt8]>([])

    var output: LogOutput {
        LogOutput { new in self.bytes.withLock { $0.append(contentsOf: new) } }
    }

    var lines: [String] {
        String(decoding: bytes.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
