import Foundation
import GRDB
import TableStore
import HostileTextSupport
import PropertyBased
import TableKit
@testable import TablePagesDatabase
import Testing

@Suite struct DatasetteJSONTests {
    /// Finite doubles of every magnitude, from their bits.
    static let doubles = Gen<UInt64>.value(in: 0...UInt64.max).map { Double(bitPattern: $0) }

    @Test func pythonReprReadsBackAsTheSameNumberInPythonsNotation() async {
        await propertyCheckFailingOnThrow(input: Self.doubles) { value in
            guard value.isFinite else { return }
            let text = DatasetteJSON.pythonRepr(value)
            #expect(Double(text) == value, "\(text)")
            // Positional from 1e-4 up to 1e16 with a point, scientific beyond with a signed
            // exponent of at least two digits, as Python's repr.
            let magnitude = value.magnitude
            if magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e16) {
                #expect(!text.contains("e") && text.contains("."), "\(text)")
            } else {
                let exponent = text.split(separator: "e").last ?? ""
                #expect((exponent.hasPrefix("+") || exponent.hasPrefix("-")) && exponent.count >= 3, "\(text)")
            }
        }
    }

    @Test func pythonReprWritesWhatPythonWrites() {
        // Python 3.11's repr of the same floats.
        let cases: [(Double, String)] = [
            (1e16, "1e+16"), (1e-05, "1e-05"), (0.0001, "0.0001"), (44, "44.0"), (-0.0, "-0.0"), (0.1, "0.1"),
            (123456789.125, "123456789.125"), (1e308, "1e+308"), (Double(bitPattern: 1), "5e-324"), (9007199254740992, "9007199254740992.0"),
            (4.611686018427388e+18, "4.611686018427388e+18"), (1.5e-7, "1.5e-07"), (-2.5, "-2.5"), (1234567890123456.7, "1234567890123456.8"),
        ]
        for (value, python) in cases {
            #expect(DatasetteJSON.pythonRepr(value) == python, "\(value)")
        }
    }

    @Test func anyValueIsWrittenAsDatasetteWritesIt() async throws {
        let values = zip(Gen.int(in: 0...4), HostileText.text, Self.doubles, Gen<UInt8>.value(in: 0...255).array(of: 0...6)).map { kind, text, real, bytes -> SQLValue in
            switch kind {
            case 0: return .null
            case 1: return SQLValue.integer(Int64(bitPattern: real.bitPattern))
            case 2: return SQLValue.real(real)
            case 3: return SQLValue.text(text)
            default: return SQLValue.blob(Data(bytes))
            }
        }
        await propertyCheckFailingOnThrow(input: values.array(of: 1...4)) { row in
            var out = OutputBuffer()
            out.append("[")
            for (index, value) in row.enumerated() {
                if index > 0 { out.append(",") }
                DatasetteJSON.appendValue(value, to: &out)
            }
            out.append("]")
            // JSONTree (JSONDecoder): JSONSerialization drops U+FEFF from strings on Linux.
            let parsed = try JSONTree.parse(out.bytes).elements
            #expect(parsed.count == row.count, "\(out.string)")
            for (value, json) in zip(row, parsed) {
                switch (value, json) {
                case (.null, .null): break
                case (.integer(let integer), .number(let number)): #expect(number == Double(integer))
                case (.real(let real), .number(let number)) where real.isFinite:
                    // Foundation's parser may miss the last bit; pythonRepr's exactness is checked above.
                    #expect(number == real || abs(number - real) <= abs(real) * 1e-15, "\(real)")
                case (.real(let real), .null): #expect(!real.isFinite)
                case (.text(let text), .string): #expect(json.utf8 == Array(text.utf8))
                case (.blob(let data), _):
                    if String(validating: Array(data), as: UTF8.self) != nil {
                        #expect(json.utf8 == Array(data))
                    } else {
                        #expect(json["$base64"].map { if case .bool(true) = $0 { true } else { false } } == true)
                        #expect(json["encoded"].flatMap { if case .string(let text) = $0 { Data(base64Encoded: text) } else { nil } } == data)
                    }
                default: Issue.record("\(value) was written as \(json)")
                }
            }
        }
    }
}
