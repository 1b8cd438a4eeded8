import Testing
import LocationCodecs
import LocationCore
import LocationValues

/// How sentences become epochs: one fix per epoch, as early as possible,
/// dates carried over midnight, and receivers that say "no fix".
@Suite struct NMEAEpochTests {
    private func s(_ body: String) -> String { NMEATest.sentence(body) }

    private func epochs(_ count: Int, from second: Int = 0) -> [String] {
        (0..<count).map { NMEATest.epoch(String(format2: 9, 30, second + $0)) }
    }

    /// Feeds `chunks` one by one; returns how many fixes had come out after each.
    private func fixesAfterEach(_ chunks: [String], parser: inout NMEAParser) -> [Int] {
        var total = 0
        var counts: [Int] = []
        for chunk in chunks {
            var bytes = Array(chunk.utf8)
            bytes.withUnsafeMutableBytes { parser.feed(UnsafeRawBufferPointer($0)) { _ in total += 1 } }
            counts.append(total)
        }
        return counts
    }

    @Test func oneFixPerEpochInOrder() {
        let result = NMEATest.parse(epochs(5).joined())
        #expect(result.fixes.count == 5)
        #expect(result.fixes.map(NMEATest.timeOfDay) == [
            "09:30:00.000", "09:30:01.000", "09:30:02.000", "09:30:03.000", "09:30:04.000",
        ])
        #expect(result.statistics.epochs == 5)
    }

    @Test func anEpochIsEmittedAsSoonAsTheLearnedCycleEndArrives() {
        // Until the cycle is known an epoch waits for the next one to start;
        // after two epochs ending in RMC, RMC ends the epoch at once.
        var parser = NMEAParser()
        let counts = fixesAfterEach(epochs(5), parser: &parser)
        #expect(counts == [0, 1, 3, 4, 5])
    }

    @Test func flushEmitsTheEpochInProgressWithoutEndingTheInput() {
        var parser = NMEAParser()
        var fixes: [Fix] = []
        let text = Array(epochs(1).joined().utf8)
        text.withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
        #expect(fixes.isEmpty)
        parser.flush { fixes.append($0) }
        #expect(fixes.count == 1)
        // The next epoch goes on normally.
        let next = Array(epochs(1, from: 1).joined().utf8)
        next.withUnsafeBytes { parser.feed($0) { fixes.append($0) } }
        parser.finish { fixes.append($0) }
        #expect(fixes.map(NMEATest.timeOfDay) == ["09:30:00.000", "09:30:01.000"])
    }

    @Test func sentencesArrivingAfterTheirEpochWasEmittedAreDroppedAndUnlearnTheCycle() {
        // Three regular epochs teach "RMC ends the cycle"; then the receiver
        // adds a GLL after RMC: too late for that epoch.
        let regular = epochs(3).joined()
        let extra = NMEATest.epoch("093003.00") + s("GPGLL,3540.87194,N,13946.02401,E,093003.00,A,A")
        let later = epochs(2, from: 4).joined()
        var parser = NMEAParser()
        let counts = fixesAfterEach([regular, extra, later], parser: &parser)
        #expect(counts[1] == 4)  // epoch 3 went out at its RMC
        var rest: [Fix] = []
        parser.finish { rest.append($0) }
        #expect(counts[2] + rest.count == 6)
        #expect(parser.statistics.lateSentences == 1)
        #expect(parser.statistics.epochs == 6)
    }

    @Test func aReceiverRepeatingAnEpochGivesOneFix() {
        let one = NMEATest.epoch("093001.00")
        let result = NMEATest.parse(epochs(1).joined() + one + one + epochs(1, from: 2).joined())
        #expect(result.fixes.map(NMEATest.timeOfDay) == ["09:30:00.000", "09:30:01.000", "09:30:02.000"])
        #expect(result.statistics.lateSentences == 3)
    }

    @Test func theSameLineTwiceInARowCountsOnce() {
        let vtg = s("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A")
        let gga = s("GPGGA,093002.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,")
        let rmc = s("GPRMC,093002.00,A,3540.87194,N,13946.02401,E,2.304,157.60,140326,,,A")
        let result = NMEATest.parse(epochs(2).joined() + gga + vtg + vtg + rmc + epochs(1, from: 3).joined())
        #expect(result.fixes.count == 4)
        #expect(result.statistics.lateSentences == 1)
        #expect(result.fixes[2].speed == 2.304 * 1852 / 3600)  // RMC after VTG: last one wins
    }

    @Test func aLostFirstSentenceDoesNotMergeTwoEpochs() {
        // The GGA that starts epoch 3 is lost; its GSA must not count for epoch 2.
        let third = Array(NMEATest.epoch("093002.00", hdop: "2.50").utf8)
        let withoutGGA = String(decoding: third.drop(while: { $0 != UInt8(ascii: "\n") }).dropFirst(), as: UTF8.self)
        let result = NMEATest.parse(epochs(2).joined() + withoutGGA + epochs(1, from: 3).joined())
        #expect(result.fixes.count == 4)
        #expect(result.fixes[1].horizontalError == 0.87 * 19)
        #expect(result.fixes[2].horizontalError == 2.5 * 19)
        #expect(result.fixes[2].mode == .threeD)
    }

    @Test func theDateRollsOverAtMidnightForGgaOnlyEpochs() {
        let gga = { (time: String) in
            self.s("GPGGA,\(time),3500.6960,N,13546.0860,E,1,04,1.10,12.0,M,,M,,") + self.s("GPGSA,A,3,193,194,195,199,,,,,,,,,1.45,1.10,0.95")
        }
        let result = NMEATest.parse(
            gga("235958.00") + s("GPRMC,235958.00,A,3500.6960,N,13546.0860,E,0.5,300.0,311225,,,A")
                + gga("235959.00") + gga("000000.00") + gga("000001.00")
                + s("GPRMC,000002.00,A,3500.6960,N,13546.0860,E,0.5,300.0,010126,,,A") + gga("000002.00"))
        #expect(result.fixes.map { UTCTime.format($0.time ?? 0, fractionDigits: 0) } == [
            "2025-12-31T23:59:58Z", "2025-12-31T23:59:59Z", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z",
            "2026-01-01T00:00:02Z",
        ])
    }

    @Test func aSmallStepBackInTimeStaysOnTheSameDay() {
        let result = NMEATest.parse(NMEATest.epoch("000002.00", date: "010126") + NMEATest.epoch("000001.00", date: "")
            + NMEATest.epoch("000003.00", date: ""))
        #expect(result.fixes.map { UTCTime.format($0.time ?? 0, fractionDigits: 0) } == [
            "2026-01-01T00:00:02Z", "2026-01-01T00:00:01Z", "2026-01-01T00:00:03Z",
        ])
    }

    @Test func epochsBeforeAnyDateAreNotEmitted() {
        let gga = s("GPGGA,093000.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,")
        let gga2 = s("GPGGA,093001.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,")
        let result = NMEATest.parse(gga + gga2 + NMEATest.epoch("093002.00"))
        #expect(result.fixes.map(NMEATest.timeOfDay) == ["09:30:02.000"])
        #expect(result.statistics.undatedEpochs == 2)
    }

    @Test func aDateFromAnInvalidRmcIsNotTrusted() {
        // Receivers without a fix send made-up dates (tn200's 2020 in 2005).
        let result = NMEATest.parse(
            s("GPGGA,000416.984,0000.0000,N,00000.0000,E,0,00,50.0,0.0,M,0.0,M,0.0,0000")
                + s("GPRMC,000416.984,V,36000.0000,N,72000.0000,E,0.000000,,260120,,")
                + s("GPGGA,000417.984,0000.0000,N,00000.0000,E,0,00,50.0,0.0,M,0.0,M,0.0,0000")
                + s("GPRMC,000417.984,V,36000.0000,N,72000.0000,E,0.000000,,260120,,"))
        #expect(result.fixes.isEmpty)
        #expect(result.statistics.undatedEpochs == 2)
    }

    @Test func fractionalSecondsAreKept() {
        let result = NMEATest.parse(NMEATest.epoch("105153.408") + NMEATest.epoch("105154.41"))
        #expect(result.fixes.map(NMEATest.timeOfDay) == ["10:51:53.408", "10:51:54.410"])
    }

    @Test func aStalePositionRepeatedWithoutAFixIsNoFix() {
        // RMC V, GGA quality 0, GSA mode 1, alone or together, even with a
        // plausible position, altitude and satellite count.
        let stale = "3540.87194"
        let cases = [
            NMEATest.epoch("093001.00", lat: stale, quality: 0),
            NMEATest.epoch("093001.00", lat: stale, gsaMode: 1),
            NMEATest.epoch("093001.00", lat: stale, rmcStatus: "V"),
            NMEATest.epoch("093001.00", lat: stale, quality: 0, gsaMode: 1, rmcStatus: "V"),
        ]
        for gap in cases {
            let result = NMEATest.parse(epochs(1).joined() + gap + epochs(1, from: 2).joined())
            #expect(result.fixes.map(\.mode) == [.threeD, .noFix, .threeD])
            #expect(result.fixes[1].latitude.isNaN)
            #expect(result.fixes[1].time != nil)
            #expect(result.statistics.usableFixes == 2)
        }
    }

    @Test func lastSentenceWinsForPosition() {
        // bundg_zeus_9 sends GGA, GLL and RMC with slightly different positions
        // in one epoch; like gpsd's merge, the last one stands.
        let result = NMEATest.parse(
            s("GPRMC,094737,A,5251.0093,N,00518.8170,E,5.6,230.5,200818,1.4,E,A")
                + s("GPGGA,094737,5251.0085,N,00518.8151,E,1,12,0.60,-4,M,46.8,M,,")
                + s("GPGLL,5251.0084,N,00518.8149,E,094737,A,A"))
        #expect(result.fixes.count == 1)
        #expect(abs((result.fixes.first?.latitude ?? 0) - (52 + 51.0084 / 60)) < 1e-12)
        #expect(result.fixes.first?.altitude == -4)
    }
}

extension String {
    /// `hhmmss.00` from a time of day, seconds allowed to run past 59.
    init(format2 hour: Int, _ minute: Int, _ second: Int) {
        let total = hour * 3600 + minute * 60 + second
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        self = two(total / 3600 % 24) + two(total / 60 % 60) + two(total % 60) + ".00"
    }
}
