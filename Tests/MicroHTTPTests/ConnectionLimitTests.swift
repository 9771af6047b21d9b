import MicroHTTP
import Testing

@Suite("The default connection limit follows the open-file limit")
struct ConnectionLimitTests {
    @Test func aMachineAllowingTwentyThousandFilesGets19488Connections() {
        // The Limits row of docs/operations.md quotes this figure; 15,000 live subscribers fit under it.
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: 20_000) == 19_488)
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: 20_000) >= 15_000)
    }

    @Test func theDefaultKeepsFilesForEverythingElseAndIsCapped() {
        #expect(ServerConfiguration.reservedFileDescriptors == 512)
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: 4_096) == 3_584)
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: 1_048_576) == 100_000)
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: .max) == 100_000)
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: 100) == 64)
        #expect(ServerConfiguration.defaultConnectionLimit(openFileHardLimit: nil) == 10_000)
    }

    @Test func aNewConfigurationUsesThisProcesssHardLimit() {
        let expected = ServerConfiguration.defaultConnectionLimit(openFileHardLimit: ProcessInfoLite.openFileHardLimit)
        #expect(ServerConfiguration().connectionLimit == expected)
        #expect(ProcessInfoLite.openFileHardLimit != nil)
    }
}
