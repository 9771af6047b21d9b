import HTTPTestSupport
import Testing

/// A Prometheus text exposition (format 0.0.4), parsed strictly: every line must be a `# TYPE`,
/// `# HELP` or other comment, or a sample `name{label="value",…} value`; each family's `TYPE`
/// comes once, before its samples; no sample repeats; counters are not negative; and a
/// histogram's buckets are cumulative and end in `+Inf` equal to its `_count`.
struct PrometheusExposition {
    /// One sample line.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Why a text is not a valid exposition.
    struct Malformed: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// The declared type of each family, e.g. `["tablepages_http_requests_total": "counter"]`.
    private(set) var types: [String: String] = [:]
    /// The samples in order.
    private(set) var samples: [Sample] = []

    init(parsing text: String) throws {
        var seen = Set<String>()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3)
                if words.count >= 2, words[1] == "TYPE" {
                    guard words.count == 4, Self.isMetricName(words[2]),
                          ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3]) else {
                        throw Malformed(line: number, reason: "bad TYPE line \(line)")
                    }
                    let family = String(words[2])
                    guard types[family] == nil else { throw Malformed(line: number, reason: "second TYPE for \(family)") }
                    guard !samples.contains(where: { Self.family(of: $0.name, types: [family: String(words[3])]) == family }) else {
                        throw Malformed(line: number, reason: "TYPE for \(family) after its samples")
                    }
                    types[family] = String(words[3])
                } else if words.count >= 2, words[1] == "HELP", words.count < 3 || !Self.isMetricName(words[2]) {
                    throw Malformed(line: number, reason: "bad HELP line \(line)")
                }
                continue
            }
            let sample = try Self.sample(Substring(line), line: number)
            let identity = sample.name + "{" + sample.labels.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }.joined(separator: ",") + "}"
            guard seen.insert(identity).inserted else { throw Malformed(line: number, reason: "repeated sample \(identity)") }
            guard let family = Self.family(of: sample.name, types: types) else {
                throw Malformed(line: number, reason: "\(sample.name) has no TYPE")
            }
            if types[family] == "counter", sample.value < 0 { throw Malformed(line: number, reason: "negative counter \(identity)") }
            if sample.name.hasSuffix("_bucket"), types[family] == "histogram", sample.labels["le"] == nil {
                throw Malformed(line: number, reason: "bucket without le: \(identity)")
            }
            samples.append(sample)
        }
        try checkHistograms()
    }

    /// The value of the sample named `name` with exactly `labels`, or nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The value as `value(_:_:)` gives it, 0 when the series does not exist yet.
    func count(_ name: String, _ labels: [String: String] = [:]) -> Double {
        value(name, labels) ?? 0
    }

    /// Every sample named `name`.
    func samples(named name: String) -> [Sample] {
        samples.filter { $0.name == name }
    }

    // MARK: Parsing

    /// The family a sample belongs to: its own name, or for a histogram's or summary's series the
    /// name without `_bucket`, `_sum` or `_count`.
    private static func family(of name: String, types: [String: String]) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let stem = String(name.dropLast(suffix.count))
            if let type = types[stem], type == "histogram" || (type == "summary" && suffix != "_bucket") { return stem }
        }
        return nil
    }

    private static func isMetricName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, !isDigit(first) else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" || $0 == ":" }
    }

    private static func isLabelName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, !isDigit(first) else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || $0 == "_" || isDigit($0) }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func sample(_ line: Substring, line number: Int) throws -> Sample {
        var rest = line[...]
        let nameEnd = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
        let name = rest[..<nameEnd]
        guard isMetricName(name) else { throw Malformed(line: number, reason: "bad metric name in \(line)") }
        rest = rest[nameEnd...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let equals = rest.firstIndex(of: "="), isLabelName(rest[..<equals]) else {
                    throw Malformed(line: number, reason: "bad label name in \(line)")
                }
                let label = String(rest[..<equals])
                rest = rest[rest.index(after: equals)...]
                guard rest.first == "\"" else { throw Malformed(line: number, reason: "unquoted label value in \(line)") }
                rest = rest.dropFirst()
                var value = ""
                while true {
                    guard let character = rest.first else { throw Malformed(line: number, reason: "unterminated label value in \(line)") }
                    rest = rest.dropFirst()
                    if character == "\"" { break }
                    if character == "\\" {
                        switch rest.first {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw Malformed(line: number, reason: "bad escape in \(line)")
                        }
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard labels.updateValue(value, forKey: label) == nil else {
                    throw Malformed(line: number, reason: "label \(label) twice in \(line)")
                }
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" {
                    throw Malformed(line: number, reason: "expected , or } in \(line)")
                }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ", omittingEmptySubsequences: false)
        guard rest.first == " ", fields.count == 2 || (fields.count == 3 && Int(fields[2]) != nil),
              let value = parseValue(fields[1]) else {
            throw Malformed(line: number, reason: "bad value in \(line)")
        }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func parseValue(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    /// Each histogram series: buckets cumulative, the last `+Inf`, equal to `_count`.
    private func checkHistograms() throws {
        for (family, type) in types where type == "histogram" {
            var series: [[String: String]: [(le: Double, count: Double)]] = [:]
            for sample in samples where sample.name == family + "_bucket" {
                var labels = sample.labels
                guard let le = labels.removeValue(forKey: "le").flatMap({ Self.parseValue($0[...]) }) else {
                    throw Malformed(line: 0, reason: "bucket of \(family) with a bad le")
                }
                series[labels, default: []].append((le, sample.value))
            }
            for (labels, buckets) in series {
                guard buckets.last?.le == .infinity else { throw Malformed(line: 0, reason: "\(family)\(labels) does not end in +Inf") }
                guard zip(buckets, buckets.dropFirst()).allSatisfy({ $0.le < $1.le && $0.count <= $1.count }) else {
                    throw Malformed(line: 0, reason: "\(family)\(labels) buckets are not cumulative")
                }
                guard value(family + "_count", labels) == buckets.last?.count, value(family + "_sum", labels) != nil else {
                    throw Malformed(line: 0, reason: "\(family)\(labels) +Inf bucket differs from _count, or no _sum")
                }
            }
        }
    }
}

/// `GET /metrics` on `connection`, checked for its content type and parsed.
func scrapeMetrics(_ connection: TestConnection) async throws -> PrometheusExposition {
    let response = try await connection.request("GET", "/metrics")
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
    return try PrometheusExposition(parsing: response.text)
}
