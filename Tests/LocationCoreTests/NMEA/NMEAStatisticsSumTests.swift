import Testing
@testable import LocationCodecs
@testable import LocationCore

/// A replay of several recordings adds their counts: every count, so the
/// sentences still add up and the fragments stay apart.
@Suite struct NMEAStatisticsSumTests {
    static func parsed(_ text: String) -> NMEAStatistics {
        var parser = NMEAParser()
        Array(text.utf8).withUnsafeBytes { bytes in parser.feed(bytes) { _ in } }
        parser.finish { _ in }
        return parser.statistics
    }

    @Test func theSumOfTwoInputsAddsUpAndKeepsEveryCount() throws {
        let good = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
            + "$GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*42\r\n"
        let damaged = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*00\r\n"
            + "$GPGGA,12\u{1}3520\r\n" + "$GPTXT,01,01,02,hello*4B\r\n"
        let a = Self.parsed(good)
        let b = Self.parsed(damaged)
        let sum = a + b
        #expect(a.addsUp && b.addsUp && sum.addsUp, "\(a) \(b)")
        #expect(sum.sentences == a.sentences + b.sentences)
        #expect(sum.used == a.used + b.used && sum.used > 0)
        #expect(sum.fragments == a.fragments + b.fragments)
        #expect(sum.unreadableTimes == a.unreadableTimes + b.unreadableTimes)
        #expect(sum.badChecksums == a.badChecksums + b.badChecksums && sum.badChecksums > 0)
        #expect(sum.epochs == a.epochs + b.epochs)
    }
}
