import Testing
import TestSupport
@testable import LocationProtocol
@testable import LocationValues
@testable import LocationTools

/// The receiver in `status` (#15): its position for those allowed to see it,
/// the sky view (satellites used and seen, DOPs) and the clock offset for
/// everyone, through `Disclosure` and into the text and the JSON.
@Suite struct StatusReceiverTests {
    static let sky = SkyView(satellitesUsed: 9, satellitesVisible: 14, hdop: 0.87, pdop: 1.67, vdop: 1.42)

    /// The sample report with a sky view 1 s old, as the daemon would build it.
    static var report: StatusReport {
        var report = Samples.report
        report.skies = [SkyReport(view: sky, age: 1)]
        return report
    }

    /// The sample with the receiver's clock `offset` seconds off the system clock.
    static func report(clockOffset offset: Double) -> StatusReport {
        var report = Self.report
        report.time = Samples.t0 - offset
        return report
    }

    static func reply(_ report: StatusReport) throws -> StatusReport {
        guard case .reply(let reply) = try ServerMessage.decode(ControlReply.status(id: 1, report).line()) else {
            throw ControlDecodeError("not a reply")
        }
        return try reply.statusReport()
    }

    @Test func aPrivilegedReaderSeesThePositionAndTheSky() {
        let shown = Disclosure(tier: .privileged, services: true).status(Self.report)
        let text = StatusRenderer.render(shown)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "gpsd 127.0.0.1:2947: connected, 3D fix 2 s ago, ±4.8 m, 9 satellites")
        #expect(lines[1] == "position: 52.3765432,4.8954321, altitude 3.3 m")
        #expect(lines[2] == "sky: 9 of 14 satellites used, HDOP 0.87, PDOP 1.67, VDOP 1.42")
    }

    /// #39: with several receivers, each line of one receiver's figures names it: the followed one's
    /// fix and position, and the sky of the one that reported last, which may be another.
    @Test func withSeveralReceiversEachLineNamesTheReceiverItComesFrom() {
        var report = Self.report(clockOffset: -600)
        report.status.lastFix?.device = "/dev/ttyACM0"
        report.skies = [SkyReport(view: SkyView(satellitesUsed: 9, satellitesVisible: 14, device: "/dev/ttyUSB0"), age: 1)]
        let lines = StatusRenderer.render(report).split(separator: "\n").map(String.init)
        // One receiver: its lines need no name.
        #expect(lines[0] == "gpsd 127.0.0.1:2947: connected, 3D fix 2 s ago, ±4.8 m, 9 satellites")
        #expect(lines[1] == "position: 52.3765432,4.8954321, altitude 3.3 m")
        #expect(lines[2] == "sky: 9 of 14 satellites used")
        report.status.receivers = [ReceiverTableTests.receiver("/dev/ttyACM0", ttff: 1), ReceiverTableTests.receiver("/dev/ttyUSB0", ttff: 1)]
        let several = StatusRenderer.render(report).split(separator: "\n").map(String.init)
        #expect(several[0] == "gpsd 127.0.0.1:2947: connected, 3D fix (/dev/ttyACM0) 2 s ago, ±4.8 m, 9 satellites")
        #expect(several[1] == "position (/dev/ttyACM0): 52.3765432,4.8954321, altitude 3.3 m")
        #expect(several[2] == "sky (/dev/ttyUSB0): 9 of 14 satellites used")
        #expect(several[3].hasPrefix("receiver clock (/dev/ttyACM0): 10 min behind the system clock"), "\(several[3])")
    }

    @Test func anUnprivilegedReaderGetsTheSkyAndTheClockButNoCoordinate() throws {
        let offset = -261 * 86_400.0
        let full = Self.report(clockOffset: offset)
        let stripped = Disclosure(tier: .unprivileged, services: true).status(full)
        let fix = try #require(stripped.status.lastFix)
        #expect(!fix.latitude.isFinite && !fix.longitude.isFinite && fix.altitude == nil)
        #expect(fix.speed == nil && fix.course == nil)
        #expect(stripped.sky == Self.sky)
        #expect(stripped.skyAge == 1)
        #expect(stripped.receiverClockOffset == offset)
        #expect(stripped.status.timeJumps == 2 && stripped.status.lastTimeJump == full.status.lastTimeJump)

        let line = ControlReply.status(id: 1, stripped).line()
        #expect(!line.contains("\"lat\"") && !line.contains("\"lon\"") && !line.contains("52.37") && !line.contains("4.895"))
        #expect(line.contains(#""sky":{"used":9,"seen":14,"hdop":0.87,"pdop":1.67,"vdop":1.42,"age":1}"#), "\(line)")
        #expect(line.contains(#""clockOffset":-22550400"#), "\(line)")

        let text = StatusRenderer.render(stripped)
        #expect(text.contains("position: not shown — only root and members of the socket group see it\n"))
        #expect(text.contains("sky: 9 of 14 satellites used, HDOP 0.87, PDOP 1.67, VDOP 1.42\n"))
        #expect(text.contains("receiver clock: 261 d behind the system clock"))
        #expect(!text.contains("52.37") && !text.contains("4.895"))
    }

    @Test func withServicesOffNobodySeesThePositionButEveryoneTheSky() {
        var full = Self.report
        full.status.services = false
        for tier in [ReadTier.privileged, .unprivileged] {
            let stripped = Disclosure(tier: tier, services: false).status(full)
            let text = StatusRenderer.render(stripped)
            #expect(text.contains("position: not shown — no one sees it while Location Services are off"), "\(tier)")
            #expect(text.contains("sky: 9 of 14"), "\(tier)")
            #expect(!text.contains("52.37"), "\(tier)")
        }
    }

    @Test func theSkyAndTheClockOffsetRoundTripThroughTheReply() throws {
        let full = Self.report(clockOffset: 30)
        let back = try Self.reply(full)
        #expect(back.sky == Self.sky)
        #expect(back.skyAge == 1)
        #expect(back.receiverClockOffset == 30)
        let json = full.json
        #expect(json["clockOffset"] == 30)
        #expect(json["sky"]?["seen"] == 14)
        // No sky view, no member; no fix, no offset.
        let bare = StatusReport(status: EngineStatus(services: true, source: .connected, lastFix: nil, lastFixAge: nil, clients: []), time: Samples.t0)
        #expect(bare.json["sky"] == nil && bare.json["clockOffset"] == nil)
        #expect(try Self.reply(bare).sky == nil)
    }

    @Test func anOldSkySaysItsAgeAndAPartialOneSaysWhatItHas() {
        var report = Self.report
        report.skies[0].age = 42
        #expect(StatusRenderer.skyLine(report) == "sky: 9 of 14 satellites used, HDOP 0.87, PDOP 1.67, VDOP 1.42 (42 s ago)")
        report.skies = [SkyReport(view: SkyView(hdop: 1.2, pdop: 2.5), age: 0.5)]
        #expect(StatusRenderer.skyLine(report) == "sky: HDOP 1.20, PDOP 2.50")
        report.skies[0].view = SkyView(satellitesVisible: 1)
        #expect(StatusRenderer.skyLine(report) == "sky: 1 satellite in view")
        report.skies[0].view = SkyView(satellitesUsed: 4)
        #expect(StatusRenderer.skyLine(report) == "sky: 4 satellites used")
        report.skies = []
        #expect(StatusRenderer.skyLine(report) == nil)
    }

    @Test func aLostLinkSaysLastPositionAndNoFixSaysNone() {
        var status = Samples.status
        status.source = .connecting
        #expect(StatusRenderer.positionLine(status) == "last position: 52.3765432,4.8954321, altitude 3.3 m")
        status.lastFix?.mode = .twoD
        #expect(StatusRenderer.positionLine(status) == "last position: 52.3765432,4.8954321", "no altitude for a 2D fix")
        status.lastFix = nil
        #expect(StatusRenderer.positionLine(status) == nil)
    }

    @Test(arguments: [
        (SkyView(satellitesUsed: -1, satellitesVisible: -1, hdop: 99.99, pdop: 0, vdop: .nan), SkyView()),
        (SkyView(satellitesUsed: 0, satellitesVisible: 3, hdop: 99.98, pdop: 150, vdop: -1), SkyView(satellitesUsed: 0, satellitesVisible: 3, hdop: 99.98)),
    ])
    func placeholdersAreNotValues(given: SkyView, expected: SkyView) {
        #expect(given == expected)
        #expect(given.isEmpty == expected.isEmpty)
    }
}

/// `locationctl status --sky` (#32 item 4): a table per receiver, or why there is none.
@Suite struct StatusSkyTableTests {
    static let satellites = [
        Satellite(prn: 3, gnssID: 0, svID: 3, elevation: 41, azimuth: 50, snr: 46, used: true),
        Satellite(prn: 75, gnssID: 6, svID: 11, elevation: 4, azimuth: 18, snr: nil, used: false),
    ].compactMap { $0 }

    static func report(satellites: [Satellite], services: Bool = true, withheld: Bool = false) -> StatusReport {
        var report = Samples.report
        report.status.services = services
        if withheld { report.status.lastFix = report.status.lastFix.map(Disclosure.quality) }
        report.skies = [
            SkyReport(view: SkyView(satellitesUsed: 1, satellitesVisible: 2, hdop: 0.9, device: "/dev/ttyACM0", satellites: satellites), age: 1),
            SkyReport(view: SkyView(satellitesUsed: 0, device: "/dev/ttyUSB1"), age: 30),
        ]
        return report
    }

    @Test func eachReceiverHasItsTableWithUnknownValuesAsDashes() {
        let text = StatusRenderer.renderSky(Self.report(satellites: Self.satellites))
        #expect(text.contains("receiver /dev/ttyACM0: 1 of 2 satellites used, HDOP 0.90\n"), "\(text)")
        #expect(text.contains("    PRN  gnss          el    az   SNR  used\n"), "\(text)")
        #expect(text.contains("      3  GPS 3         41    50    46  yes\n"), "\(text)")
        #expect(text.contains("     75  GLONASS 11     4    18     -  no\n"), "\(text)")
        #expect(text.contains("receiver /dev/ttyUSB1 (30 s ago): 0 satellites used\n  no satellites listed"), "\(text)")
    }

    @Test func withoutTheSatellitesItSaysWhy() {
        let off = StatusRenderer.renderSky(Self.report(satellites: Self.satellites, services: false))
        #expect(off.hasPrefix("no satellites shown: Location Services are off"), "\(off)")
        let stripped = StatusRenderer.renderSky(Self.report(satellites: [], withheld: true))
        #expect(stripped.contains("satellites not shown — only root and members of the socket group see them"), "\(stripped)")
        var none = Samples.report
        none.skies = []
        #expect(StatusRenderer.renderSky(none) == "no satellites: the source has sent no sky view yet\n")
    }

    @Test func theParserTakesSky() throws {
        let parsed = CtlArguments.parse(["status", "--sky"])
        guard case .success(let invocation) = parsed else { Issue.record("\(parsed)"); return }
        #expect(invocation.action == .statusSky(client: nil))
        let plainParsed = CtlArguments.parse(["status", "logger"])
        guard case .success(let plain) = plainParsed else { Issue.record("\(plainParsed)"); return }
        #expect(plain.action == .request(.status(client: "logger")))
    }
}
