import Testing
import LocationCore
import LocationValues

/// The project's own tracks (fixtures/nmea, made by scripts/nmea-fixtures)
/// parse into what they were made to show.
@Suite struct NMEAFixtureTests {
    private func parse(_ name: String) throws -> NMEATest.Result {
        let bytes = NMEATest.fixture(name)
        try #require(!bytes.isEmpty, "fixtures/nmea/\(name) is missing; run scripts/nmea-fixtures")
        return NMEATest.parse(bytes)
    }

    @Test(arguments: NMEATest.fixtureNames)
    func feedingByteByByteGivesTheSameFixes(_ name: String) throws {
        let bytes = NMEATest.fixture(name)
        try #require(!bytes.isEmpty)
        let whole = NMEATest.parse(bytes)
        let trickle = NMEATest.parse(bytes, chunk: 1)
        let odd = NMEATest.parse(bytes, chunk: 97)
        #expect(NMEATest.same(trickle.fixes, whole.fixes))
        #expect(NMEATest.same(odd.fixes, whole.fixes))
        #expect(trickle.statistics == whole.statistics)
    }

    @Test(arguments: NMEATest.fixtureNames)
    func timesOnlyMoveForwardOneSecondAtATime(_ name: String) throws {
        let fixes = try parse(name).fixes
        #expect(fixes.count >= 40)
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            let step = (b.time ?? 0) - (a.time ?? 0)
            #expect(abs(step - 1) < 1e-6, "\(name): \(NMEATest.timeOfDay(a)) → \(NMEATest.timeOfDay(b))")
        }
    }

    @Test func walkIsAUsableTrackOfSmallSteps() throws {
        let result = try parse("walk.nmea")
        let fixes = result.fixes
        #expect(fixes.count == 360)
        #expect(fixes.allSatisfy { $0.isUsable && $0.mode == .threeD })
        #expect(result.statistics.sentences == 1800)
        #expect(result.statistics.badChecksums == 0 && result.statistics.malformed == 0)
        let steps = zip(fixes, fixes.dropFirst()).map { NMEATest.distance($0, $1) }
        // 0.3–9 m per second, give or take the 1e-5' (2 cm) rounding of the text.
        #expect(steps.allSatisfy { $0 > 0.25 && $0 < 9.05 })
        #expect(steps.contains { $0 < 1 } && steps.contains { $0 > 5 })
        #expect(steps.filter { $0 < 5 }.count > 100)  // plenty below the 5 m distance filter
        let errors = fixes.compactMap(\.horizontalError)
        #expect(errors.count == 360)
        #expect((errors.max() ?? 0) > 3 * (errors.min() ?? 0))  // eph varies
        // The DGPS stretch (epochs 150–189) uses gpsd's smaller UERE.
        #expect(fixes[150..<190].allSatisfy { ($0.horizontalError ?? 99) < 20 })
        #expect(fixes.allSatisfy { $0.speed != nil && $0.course != nil && $0.altitude != nil })
    }

    @Test func equatorAndPrimeMeridianAreCrossed() throws {
        let fixes = try parse("equator-meridian.nmea").fixes
        #expect(fixes.count == 60)
        #expect(fixes.first.map { $0.latitude > 0 && $0.longitude < 0 } == true)
        #expect(fixes.last.map { $0.latitude < 0 && $0.longitude > 0 } == true)
        let steps = zip(fixes, fixes.dropFirst()).map { NMEATest.distance($0, $1) }
        #expect(steps.allSatisfy { $0 > 1.9 && $0 < 4.1 })
        #expect(fixes.allSatisfy { $0.isUsable && $0.satellitesUsed == 10 })
    }

    @Test func antimeridianIsCrossedWithoutAJump() throws {
        let fixes = try parse("antimeridian.nmea").fixes
        #expect(fixes.count == 50)
        #expect(fixes.first.map { $0.longitude > 179.99 } == true)
        #expect(fixes.last.map { $0.longitude < -179.99 } == true)
        let steps = zip(fixes, fixes.dropFirst()).map { NMEATest.distance($0, $1) }
        #expect(steps.allSatisfy { $0 > 3.9 && $0 < 8.6 })
        // A leap day, 2024-02-29, runs past 23:10.
        #expect(fixes.first.map { UTCTime.format($0.time ?? 0, fractionDigits: 0) } == "2024-02-29T23:10:00Z")
    }

    @Test func highLatitudesParseAndA2DStretchHasNoAltitude() throws {
        let fixes = try parse("high-latitude.nmea").fixes
        #expect(fixes.count == 70)
        #expect(fixes.allSatisfy { $0.isUsable && $0.latitude > 80 })
        #expect(fixes.contains { $0.latitude > 89.99 })
        let twoD = fixes[15..<25]
        #expect(twoD.allSatisfy { $0.mode == .twoD && $0.altitude == nil && $0.verticalError == nil })
        #expect(fixes[25].mode == .threeD)
    }

    @Test func midnightRollsIntoTheNewYearWithGgaOnlyEpochsDated() throws {
        let result = try parse("midnight.nmea")
        let stamps = result.fixes.map { UTCTime.format($0.time ?? 0, fractionDigits: 0) }
        // The first two epochs come before the first RMC: no date yet.
        #expect(result.statistics.undatedEpochs == 2)
        #expect(stamps.first == "2025-12-31T23:59:40Z")
        #expect(stamps.contains("2025-12-31T23:59:59Z"))
        #expect(stamps.contains("2026-01-01T00:00:00Z"))
        #expect(stamps.last == "2026-01-01T00:00:22Z")
        #expect(stamps.count == 43)
    }

    @Test func noFixGapsGiveNoFixEpochsNotStalePositions() throws {
        let result = try parse("no-fix-gaps.nmea")
        let modes = result.fixes.map(\.mode)
        #expect(modes.count == 80)
        #expect(modes[20..<30].allSatisfy { $0 == .noFix })
        #expect(modes[50..<58].allSatisfy { $0 == .noFix })
        #expect(result.statistics.usableFixes == 62)
        #expect(result.fixes.filter { $0.mode == .noFix }.allSatisfy { $0.latitude.isNaN && $0.time != nil })
        #expect(result.fixes[30].isUsable && result.fixes[58].isUsable)
    }

    @Test func corruptedTrackKeepsEveryEpochAndCountsTheDamage() throws {
        let result = try parse("corrupted.nmea")
        #expect(result.fixes.count == 40)
        #expect(result.fixes.allSatisfy { $0.isUsable })
        let s = result.statistics
        #expect(s.badChecksums == 2)  // the GGA at 17:45:02, the GSA at 17:45:09
        // Eight pieces of damage: truncated GGA, merged GSA, NUL in RMC, over-long TXT, tab in
        // GSA, CR-only GSA, bad leader. Three were framed as sentences (too short or too long:
        // malformed), five never were (fragments). The unreadable GGA latitude's epoch keeps its
        // other fields (counted as nothing).
        #expect(s.malformed == 3)
        #expect(s.fragments == 5)
        #expect(s.unreadableTimes == 0)
        #expect(s.addsUp)
        #expect(s.ignored == 1)  // $PGRME
        // The GGA of 17:45:02 is lost: that epoch has no altitude, but RMC's position.
        #expect(result.fixes[2].altitude == nil && result.fixes[2].mode == .threeD)
        // The split RMC at 17:45:06 was reassembled: that epoch has a speed.
        #expect(result.fixes[6].speed != nil)
        // NULs in the RMC at 17:45:10: no speed, but GGA's position.
        #expect(result.fixes[10].speed == nil && result.fixes[10].altitude != nil)
    }
}
