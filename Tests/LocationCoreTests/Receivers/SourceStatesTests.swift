import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationProtocol

/// Several sources as one (docs/sources.md, "Several sources"): the combined state and the
/// receivers' names.
@Suite struct SourceStatesTests {
    static let table: [(states: [SourceState], combined: SourceState)] = [
        ([], .connecting),
        ([.connecting], .connecting),
        ([.endOfFile], .endOfFile),
        ([.fix], .fix),
        ([.connecting, .fix], .fix),
        ([.endOfFile, .fix], .fix),
        ([.noFix, .fix], .fix),
        ([.connected, .noFix], .noFix),
        ([.connecting, .noFix], .noFix),
        ([.connecting, .connected], .connected),
        ([.endOfFile, .connected], .connected),
        // A file waiting at its end is no outage, but gpsd away beside it is.
        ([.endOfFile, .connecting], .connecting),
        ([.connecting, .endOfFile], .connecting),
        ([.endOfFile, .endOfFile], .endOfFile),
        ([.connecting, .connecting, .connecting], .connecting),
    ]

    @Test(arguments: table.indices)
    func severalSourcesCombineIntoTheBestState(_ i: Int) {
        #expect(SourceState.combined(Self.table[i].states) == Self.table[i].combined)
    }

    static let two = [
        NamedSource(.gpsd(host: "127.0.0.1", port: 2947)), NamedSource(name: "gnss", .nmea(device: "/dev/ttyUSB0", baud: 9600)),
    ]

    @Test func theEngineHearsTheCombinationWhenItChangesOrFromTheSourceThatSetsIt() {
        var sources = SourceStates(Self.two)
        #expect(sources.report(.connected, from: 1) == .connected)
        #expect(sources.report(.fix, from: 0) == .fix)
        // gnss still connected: the combination stays fix, and gnss does not set it.
        #expect(sources.report(.connected, from: 1) == nil)
        #expect(sources.report(.fix, from: 0) == .fix)
        #expect(sources.report(.connecting, from: 0) == .connected)
        #expect(sources.report(.endOfFile, from: 1) == .connecting)
        #expect(sources.states == [.connecting, .endOfFile])
    }

    @Test func oneSourceIsHeardOnEveryReport() {
        var sources = SourceStates([NamedSource(.defaultGPSD)])
        for state in [SourceState.connecting, .connected, .connected, .fix, .noFix, .noFix] {
            #expect(sources.report(state, from: 0) == state)
        }
    }

    @Test func aNameAnotherSourceBroughtFirstIsPrefixedWithTheSourcesName() {
        var sources = SourceStates(Self.two)
        #expect(sources.receiverName("/dev/ttyUSB0", from: 1) == "/dev/ttyUSB0")
        #expect(sources.takeRenamed() == nil)
        #expect(sources.receiverName("/dev/ttyUSB0", from: 0) == "default:/dev/ttyUSB0")
        #expect(sources.takeRenamed()?.contains("[source.gnss] brought a receiver of that name first") == true)
        #expect(sources.takeRenamed() == nil)
        // Each keeps its name for the run, and each receiver names its own source.
        #expect(sources.receiverName("/dev/ttyUSB0", from: 1) == "/dev/ttyUSB0")
        #expect(sources.receiverName("/dev/ttyUSB0", from: 0) == "default:/dev/ttyUSB0")
        #expect(sources.receiverName("/dev/ttyACM0", from: 0) == "/dev/ttyACM0")
        #expect(sources.receiverName(nil, from: 0) == nil)
        #expect(sources.receiverName(nil, from: 1) == "gnss")
        #expect(sources.source(of: "/dev/ttyUSB0") == "nmea /dev/ttyUSB0")
        #expect(sources.source(of: "default:/dev/ttyUSB0") == "gpsd 127.0.0.1:2947")
        #expect(sources.receivers(of: 0) == ["", "/dev/ttyACM0", "default:/dev/ttyUSB0"])
    }

    @Test func statusListsEverySourceWithItsOutageGrownToNow() throws {
        var sources = SourceStates(Self.two)
        _ = sources.report(.fix, from: 0)
        sources.outages[1] = (SourceOutage(attempts: 2, seconds: 1, waits: 2, longestWait: 0.5, lastWait: 0.5), 10)
        let statuses = sources.statuses(now: 13) { $0 == 0 ? SourceCounts(fixes: 4) : nil }
        #expect(statuses.map(\.name) == ["default", "gnss"])
        #expect(statuses.map(\.description) == ["gpsd 127.0.0.1:2947", "nmea /dev/ttyUSB0"])
        #expect(statuses.map(\.state) == [.fix, .connecting])
        #expect(statuses[0].counts?.fixes == 4 && statuses[0].outage == nil)
        #expect(statuses[1].outage?.seconds == 4)
        let json = statuses[1].json
        #expect(try SourceStatus(json: json) == statuses[1])
    }

    @Test func oneSourceReconnectingRestartsTheTTFFOfItsOwnReceiversOnly() {
        var engine = TestEngine.engine([TestEngine.client("best", authorization: .always)])
        for (at, device) in [(0.0, "A"), (2, "B")] {
            var fix = TestEngine.fix(at, mode: .threeD)
            fix.device = device
            _ = engine.handle(.fix(fix), now: TestEngine.t0 + at)
        }
        engine.sourceReconnected(receivers: ["B"], now: TestEngine.t0 + 5)
        var fix = TestEngine.fix(9, mode: .threeD)
        fix.device = "B"
        _ = engine.handle(.fix(fix), now: TestEngine.t0 + 9)
        let ttff = engine.status(now: TestEngine.t0 + 10).receivers.map(\.timeToFirstFix)
        #expect(ttff == [0, 4])
    }
}
