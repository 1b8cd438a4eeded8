@testable import LocationCodecs
@testable import LocationCore
@testable import LocationValues
import Testing

@Suite struct EpochAssemblerTests {
    typealias Time = GPSDFixReport.Time

    static func time(_ second: Int64, _ nanoseconds: Int32 = 0) -> Time {
        Time(seconds: 1_773_489_780 + second, nanoseconds: nanoseconds)
    }

    /// What gpsd 3.22 sends after a GGA: position, altitude, its own speed estimate, no course.
    static func ggaTPV(_ second: Int64, latitude: Double = 48.1, mode: FixMode = .threeD) -> GPSDFixReport {
        GPSDFixReport(
            time: time(second), mode: mode, latitude: latitude, longitude: 11.5, altitudeMSL: 545.4,
            altitudeHAE: 592.3, geoidSeparation: 46.9, eph: 17.1, epv: 34.5, speed: 1.853)
    }

    /// What follows after the RMC: the same, plus course and the receiver's speed.
    static func rmcTPV(_ second: Int64, latitude: Double = 48.1) -> GPSDFixReport {
        var report = ggaTPV(second, latitude: latitude)
        report.speed = 0.257
        report.track = 54.7
        return report
    }

    struct Run {
        var assembler: GPSDEpochAssembler
        var fixes: [Fix] = []
        init(_ tuning: GPSDEpochAssembler.Tuning = .init()) { assembler = GPSDEpochAssembler(tuning: tuning) }
        mutating func add(_ report: GPSDFixReport, at now: Double) {
            var out: [Fix] = []
            assembler.add(report, at: now) { out.append($0) }
            fixes += out
        }
        mutating func expire(at now: Double) {
            var out: [Fix] = []
            assembler.expire(at: now) { out.append($0) }
            fixes += out
        }
        mutating func flush() {
            var out: [Fix] = []
            assembler.flush { out.append($0) }
            fixes += out
        }
    }

    @Test func severalTPVsOfOneEpochAreDeliveredOnceWithTheMostCompleteValues() {
        var run = Run()
        run.add(Self.ggaTPV(0), at: 0.0)
        run.add(Self.rmcTPV(0), at: 0.1)
        #expect(run.fixes.isEmpty)
        run.add(Self.ggaTPV(1), at: 1.0)
        #expect(run.fixes.count == 1)
        let fix = run.fixes[0]
        #expect(fix.time == Self.time(0).value)
        #expect(fix.course == 54.7)
        #expect(fix.speed == 0.257, "the later TPV's speed (the receiver's) wins over gpsd's estimate")
        #expect(fix.altitude == 545.4)
        #expect(fix.horizontalError == 17.1)
        #expect(run.assembler.counters.reports == 3)
    }

    @Test func valuesOnlyAnEarlierTPVKnewAreKept() {
        var run = Run()
        var first = Self.ggaTPV(0)
        first.epx = 3
        first.epy = 4
        var second = Self.rmcTPV(0)
        second.altitudeMSL = nil
        second.eph = nil
        run.add(first, at: 0)
        run.add(second, at: 0.1)
        run.flush()
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.altitude == 545.4)
        #expect(run.fixes.first?.horizontalError == 17.1)
        #expect(run.fixes.first?.course == 54.7)
    }

    @Test func aChangeOfModeInsideAnEpochStartsItOver() {
        var run = Run()
        run.add(Self.ggaTPV(0), at: 0)
        let twoD = GPSDFixReport(time: Self.time(0), mode: .twoD, latitude: 48.2, longitude: 11.6)
        run.add(twoD, at: 0.1)
        run.flush()
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.mode == .twoD)
        #expect(run.fixes.first?.altitude == nil, "a 3D altitude must not survive into a 2D report")
        #expect(run.fixes.first?.latitude == 48.2)
    }

    @Test func aFixWithoutTimeIsNeverDelivered() {
        var run = Run()
        for index in 0..<5 {
            run.add(GPSDFixReport(time: nil, mode: .threeD, latitude: 48.1, longitude: 11.5), at: Double(index))
            run.expire(at: Double(index) + 0.9)
        }
        run.flush()
        #expect(run.fixes.isEmpty)
        #expect(run.assembler.counters.timeless == 5)
        #expect(run.assembler.deadline == nil)
    }

    @Test func silenceAfterTheLastTPVDeliversTheEpoch() {
        var run = Run(.init(quietInterval: 1.0))
        run.add(Self.ggaTPV(0), at: 10.0)
        run.add(Self.rmcTPV(0), at: 10.2)
        #expect(run.assembler.deadline == 11.2)
        run.expire(at: 11.1)
        #expect(run.fixes.isEmpty)
        run.expire(at: 11.2)
        #expect(run.fixes.count == 1)
        #expect(run.assembler.deadline == nil)
    }

    @Test func aTPVForAnEpochAlreadyDeliveredIsDroppedAsLate() {
        var run = Run()
        run.add(Self.ggaTPV(0), at: 0)
        run.expire(at: 5)
        run.add(Self.rmcTPV(0), at: 5.1)
        run.flush()
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.course == nil)
        #expect(run.assembler.counters.late == 1)
    }

    @Test func afterTheLinkEndsTheLastEpochResentIsNotRepeatedButAnOlderRecordingGoesOn() {
        var run = Run()
        run.add(Self.rmcTPV(0), at: 0)
        run.add(Self.rmcTPV(1), at: 1)
        run.flush()
        #expect(run.fixes.count == 2)
        // gpsd resends its last TPV to the new connection: late.
        run.add(Self.rmcTPV(1), at: 5)
        #expect(run.assembler.counters.late == 1)
        // gpsd restarted on the recording from the start: 0 again is passed on (the engine starts a
        // new time base and delivers it), and so is everything after it.
        run.add(Self.rmcTPV(0), at: 6)
        run.add(Self.rmcTPV(1), at: 7)
        run.add(Self.rmcTPV(2), at: 8)
        run.add(Self.rmcTPV(3), at: 9)
        #expect(run.fixes.map(\.time) == [0, 1, 0, 1, 2].map { Self.time($0).value })
        #expect(run.assembler.counters.late == 1)
        // Once past, a time going back within the link is not held back (only
        // a repeat of the last epoch is late there); the engine decides.
        run.add(Self.rmcTPV(1), at: 10)
        #expect(run.fixes.count == 6)
        #expect(run.assembler.counters.late == 1)
    }

    @Test func aNoFixReportWithoutTimeEndsTheEpochInProgress() {
        var run = Run()
        run.add(Self.rmcTPV(0), at: 0)
        run.add(GPSDFixReport(time: nil, mode: .noFix), at: 0.3)
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.mode == .threeD)
    }

    @Test func anEpochWithAnEarlierTimeIsANewEpoch() {
        var run = Run()
        run.add(Self.rmcTPV(5), at: 0)
        run.add(Self.rmcTPV(2), at: 1)
        run.flush()
        #expect(run.fixes.map(\.time) == [Self.time(5).value, Self.time(2).value])
    }

    @Test func onceEpochsAreSteadyTheNextIsDeliveredAsSoonAsComplete() {
        var run = Run(.init(steadyEpochs: 2))
        for second in Int64(0)..<2 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        // Epoch 1 completes when epoch 2 starts; epoch 2 is then delivered at its second TPV.
        run.add(Self.ggaTPV(2), at: 2.0)
        #expect(run.fixes.count == 2)
        run.add(Self.rmcTPV(2), at: 2.1)
        #expect(run.fixes.count == 3)
        #expect(run.fixes.last?.time == Self.time(2).value)
        #expect(run.fixes.last?.course == 54.7)
        #expect(run.assembler.counters.early == 1)
        #expect(run.assembler.deadline == nil)
    }

    @Test func anIncompleteTPVIsNotDeliveredEarlyEvenAtTheLearntCount() {
        var run = Run(.init(steadyEpochs: 2))
        for second in Int64(0)..<3 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        let before = run.fixes.count
        var second = Self.ggaTPV(3)
        second.speed = 2
        run.add(Self.ggaTPV(3), at: 3.0)
        run.add(second, at: 3.1)
        #expect(run.fixes.count == before, "two TPVs but no course yet: the learnt shape has one")
    }

    @Test func aLateTPVMakesTheAssemblerRelearnTheShapeMoreCarefully() {
        var run = Run(.init(steadyEpochs: 2))
        for second in Int64(0)..<3 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        #expect(run.assembler.counters.early == 1)
        // Epoch 3 is delivered early too, then gets a third TPV.
        run.add(Self.ggaTPV(3), at: 3.0)
        run.add(Self.rmcTPV(3), at: 3.1)
        #expect(run.assembler.counters.early == 2)
        run.add(Self.rmcTPV(3), at: 3.2)
        #expect(run.assembler.counters.late == 1)
        // Now four steady epochs are needed, not two: epochs 4...7 wait for the next one.
        for second in Int64(4)..<8 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        #expect(run.assembler.counters.early == 2)
        #expect(run.fixes.last?.time == Self.time(6).value)
        run.add(Self.ggaTPV(8), at: 8.0)
        run.add(Self.rmcTPV(8), at: 8.1)
        #expect(run.assembler.counters.early == 3)
        #expect(run.fixes.last?.time == Self.time(8).value)
    }

    @Test func epochsThatVaryInShapeAreNeverDeliveredEarly() {
        // An RMC every fifth second, GGA alone in between: no shape is steady,
        // so the RMC epochs are never cut short at their GGA.
        var run = Run()
        for second in Int64(0)..<30 {
            run.add(Self.ggaTPV(second), at: Double(second))
            if second % 5 == 0 { run.add(Self.rmcTPV(second), at: Double(second) + 0.1) }
        }
        run.flush()
        #expect(run.assembler.counters.late == 0)
        #expect(run.fixes.filter { $0.course != nil }.count == 6)
    }

    @Test func aLostFixBreaksTheSteadyShape() {
        var run = Run(.init(steadyEpochs: 2))
        for second in Int64(0)..<4 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        #expect(run.assembler.counters.early > 0)
        run.add(GPSDFixReport(time: nil, mode: .noFix), at: 4)
        // Back with a fix that now takes three TPVs: nothing is cut short.
        for second in Int64(10)..<12 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
            var third = Self.rmcTPV(second)
            third.epv = 9
            run.add(third, at: Double(second) + 0.2)
        }
        run.flush()
        #expect(run.assembler.counters.late == 0)
        #expect(run.fixes.suffix(2).allSatisfy { $0.verticalError == 9 })
    }

    @Test func byDefaultEightSteadyEpochsComeBeforeEarlyDelivery() {
        var run = Run()
        for second in Int64(0)..<10 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        // Epochs 0...7 are learnt from; 8 is the first steady one after them.
        #expect(run.assembler.counters.early == 2)
        #expect(run.fixes.last?.time == Self.time(9).value)
    }

    @Test func earlyDeliveryCanBeSwitchedOff() {
        var run = Run(.init(earlyDelivery: false))
        for second in Int64(0)..<4 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        #expect(run.fixes.count == 3)
        #expect(run.assembler.counters.early == 0)
    }

    @Test func aFlushDeliversThePendingEpochAndForgetsTheShape() {
        var run = Run(.init(steadyEpochs: 2))
        for second in Int64(0)..<3 {
            run.add(Self.ggaTPV(second), at: Double(second))
            run.add(Self.rmcTPV(second), at: Double(second) + 0.1)
        }
        run.add(Self.ggaTPV(3), at: 3.0)
        run.flush()
        #expect(run.fixes.last?.time == Self.time(3).value)
        run.add(Self.ggaTPV(4), at: 4.0)
        run.add(Self.rmcTPV(4), at: 4.1)
        #expect(run.fixes.last?.time == Self.time(3).value, "after a reconnect the shape is learnt again")
    }

    @Test func anEpochResentAfterAReconnectIsNotDeliveredTwice() {
        var run = Run()
        run.add(Self.rmcTPV(0), at: 0)
        run.flush()
        run.add(Self.rmcTPV(0), at: 2)
        run.flush()
        #expect(run.fixes.count == 1)
    }

    @Test func satellitesFromASkyReportApplyToNearbyEpochsOnly() {
        var run = Run(.init(satelliteValidity: 5))
        run.assembler.sky(satellitesUsed: 8)
        run.add(Self.rmcTPV(0), at: 0)
        run.add(Self.rmcTPV(3), at: 3)
        run.add(Self.rmcTPV(9), at: 9)
        run.flush()
        #expect(run.fixes.map(\.satellitesUsed) == [8, 8, nil])
    }

    @Test func aSkyWithoutSatellitesLeavesTheCountAlone() {
        var run = Run()
        run.assembler.sky(satellitesUsed: 6)
        run.assembler.sky(satellitesUsed: nil)
        run.add(Self.rmcTPV(0), at: 0)
        run.flush()
        #expect(run.fixes.first?.satellitesUsed == 6)
    }

    @Test func altitudeComesFromTheEllipsoidalHeightWhenMSLIsMissing() {
        let report = GPSDFixReport(
            time: Self.time(0), mode: .threeD, latitude: 1, longitude: 2, altitudeHAE: 100,
            geoidSeparation: 40, epx: 3, epy: 4)
        let fix = report.fix(satellitesUsed: nil)
        #expect(fix.altitude == 60)
        #expect(fix.horizontalError == nil, "eph or nothing: epx/epy are another statistic")
    }

    @Test func unknownPositionBecomesNaN() {
        let fix = GPSDFixReport(time: Self.time(0), mode: .noFix).fix(satellitesUsed: nil)
        #expect(fix.latitude.isNaN && fix.longitude.isNaN)
        #expect(fix.time == Self.time(0).value)
        #expect(!fix.isUsable)
    }
}
