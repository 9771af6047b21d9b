import HostileTextSupport
import PropertyBased
import Testing
import TableKit

/// ``JSONValue/integer(_:)-swift.type.method`` takes an `Int` and means the `Int64` case.
@Suite("JSONValue takes an Int where one is at hand")
struct JSONValueTests {
    @Test("Any Int is the Int64 case of the same value, and matches it")
    func intIsTheInt64Case() async {
        await propertyCheckFailingOnThrow(input: Gen<Int>.value()) { value in
            let made: JSONValue = .integer(value)
            #expect(made == JSONValue.integer(Int64(value)))
            guard case .integer(let stored) = made else {
                Issue.record("\(made) is not an integer")
                return
            }
            #expect(stored == Int64(value))
        }
    }

    @Test("A literal and an Int64 still choose a case without ambiguity")
    func literalsAndInt64() {
        let wide: Int64 = .max
        #expect(JSONValue.integer(3) == .integer(Int64(3)))
        #expect(JSONValue.integer(wide) == .integer(Int64.max))
        let count = [1, 2, 3].count
        #expect(JSONValue.integer(count) != .integer(2))
    }
}
