import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// The core fed by two sources at once (docs/sources.md, "Several sources"), each event tagged
/// with its source's index.
@Suite(.timeLimit(.minutes(10))) struct DaemonSourcesTests {
    static let sources = [
        NamedSource(.gpsd(host: "127.0.0.1", port: 2947)), NamedSource(name: "modem", .gpsd(host: "127.0.0.1", port: 2948)),
    ]

    func fix(_ i: Int, device: String, metres: Double = 0) -> Fix {
        var fix = walkFix(i, metres: metres)
        fix.device = device
        return fix
    }

    /// A core of the two sources, on a manual clock, with its directory.
    static func core() throws -> (ScratchDirectory, ManualClock, DaemonCore) {
        let dir = try ScratchDirectory("sources")
        var config = try daemonConfig(in: dir)
        config.sources = sources
        let clock = ManualClock()
        return (dir, clock, try DaemonCore(config: config, seed: 1, clock: clock.clock))
    }

    @Test func twoSourcesAreOneCombinedStateAndEachItsOwnInStatus() throws {
        let (_, clock, core) = try Self.core()
        core.ingest(.state(.connected, detail: "connected to gpsd"), from: 0)
        let outage = SourceOutage(attempts: 3, seconds: 2, waits: 3, longestWait: 0.5, lastWait: 0.5)
        core.ingest(.outage(outage), from: 1)
        clock.advance(1)
        var report = core.statusReport()
        #expect(report.status.source == .connected)
        #expect(report.sources.map(\.state) == [.connected, .connecting])
        #expect(report.sources.map(\.name) == ["default", "modem"])
        #expect(report.sources[1].outage?.seconds == 3)
        // The top-level outage is the first source's, as before there were several: it has none.
        #expect(report.sourceOutage == nil)
        #expect(report.sourceName == "gpsd 127.0.0.1:2947 (default), gpsd 127.0.0.1:2948 (modem)")
        #expect(core.statusLine().contains("gpsd 127.0.0.1:2947 (default), gpsd 127.0.0.1:2948 (modem)"), "\(core.statusLine())")

        core.ingest(.state(.connecting, detail: "gpsd went away"), from: 0)
        #expect(core.statusReport().status.source == .connecting)
        core.ingest(.state(.endOfFile, detail: "at the end"), from: 1)
        #expect(core.statusReport().status.source == .connecting)
        core.ingest(.state(.fix, detail: "receiver reports a fix"), from: 1)
        report = core.statusReport()
        #expect(report.status.source == .fix)
        #expect(report.sources.map(\.state) == [.connecting, .fix])
    }

    @Test func oneDeviceNameFromTwoSourcesIsTwoReceivers() throws {
        let (dir, clock, core) = try Self.core()
        core.ingest(.state(.connected, detail: "connected"), from: 0)
        core.ingest(.state(.connected, detail: "connected"), from: 1)
        for i in 0..<4 {
            clock.advance(1)
            core.ingest(.fix(fix(i, device: "/dev/ttyUSB0")), from: 0)
            core.ingest(.fix(fix(i, device: "/dev/ttyUSB0", metres: 30)), from: 1)
        }
        let receivers = core.statusReport().status.receivers
        #expect(receivers.map(\.device) == ["/dev/ttyUSB0", "modem:/dev/ttyUSB0"])
        #expect(receivers.map(\.source) == ["gpsd 127.0.0.1:2947", "gpsd 127.0.0.1:2948"])
        #expect(receivers.map(\.fixes) == [4, 4])
        core.shutdown()
        // One track, from the first receiver (the same epochs of the other are no second record).
        let records = try logRecords(dir.file("log/logger.jsonl"))
        #expect(records.map(\.device) == Array(repeating: "/dev/ttyUSB0", count: 4))
    }

    @Test func aReloadKeepsTheRunningSourcesAndTakesFailover() throws {
        let dir = try ScratchDirectory("sources")
        let config = try daemonConfig(in: dir)
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock)
        var changed = config
        changed.sources = Self.sources
        changed.failover = 5
        #expect(core.reload(changed) == ["[source]"])
        #expect(core.config.sources == config.sources)
        #expect(core.config.failover == 5)
        #expect(ConfigChanges.between(config, changed).contains("[source.modem] added"))
    }
}
