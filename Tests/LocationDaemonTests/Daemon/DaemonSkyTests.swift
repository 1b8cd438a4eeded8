import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// The source's sky view through the daemon core (#15): kept beside the
/// fixes, in every reader's status with its age, never with a coordinate
/// for those who may not see one.
@Suite(.timeLimit(.minutes(10))) struct DaemonSkyTests {
    static let reader = ControlPeer(pid: 7, uid: 65534, gid: 65534, mayChange: false)
    static let sky = SkyView(satellitesUsed: 8, satellitesVisible: 12, hdop: 0.9, pdop: 1.8, vdop: 1.5)

    static func status(_ core: DaemonCore, peer: ControlPeer) throws -> (StatusReport, String) {
        let reply = core.handle(ControlRequest(.status(client: nil)), from: peer)
        return (try reply.statusReport(), reply.line())
    }

    @Test func theLatestSkyViewIsInEveryReadersStatusWithItsAge() throws {
        let dir = try ScratchDirectory("sky")
        let clock = ManualClock()
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: clock.clock)
        #expect(try Self.status(core, peer: rootPeer).0.sky == nil, "no sky view before the source sent one")

        core.ingest(.sky(SkyView(satellitesUsed: 4, satellitesVisible: 6)))
        core.ingest(.fix(walkFix(0)))
        core.ingest(.sky(Self.sky))
        clock.advance(3)

        let (root, rootLine) = try Self.status(core, peer: rootPeer)
        #expect(root.sky == Self.sky)
        #expect(root.skyAge == 3)
        #expect(root.receiverClockOffset == 0)
        #expect(rootLine.contains("\"lat\":35.681199"))

        let (other, otherLine) = try Self.status(core, peer: Self.reader)
        #expect(other.sky == Self.sky && other.skyAge == 3)
        #expect(other.receiverClockOffset == 0)
        #expect(otherLine.contains(#""sky":{"used":8,"seen":12,"hdop":0.9,"pdop":1.8,"vdop":1.5,"age":3}"#), "\(otherLine)")
        #expect(!otherLine.contains("\"lat\"") && !otherLine.contains("35.681"), "\(otherLine)")
        // A sky view is no fix: nothing was delivered or counted for it.
        #expect(other.status.clients.first?.deliveredCount == 1)
        #expect(other.status.clients.first?.drops.total == 0)
    }

    @Test func eachReceiversSatellitesOnlyForAPrivilegedReaderWithServicesOn() throws {
        let dir = try ScratchDirectory("sky-receivers")
        let clock = ManualClock()
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: clock.clock)
        let satellite = try #require(Satellite(prn: 7, gnssID: 0, svID: 7, elevation: 60, azimuth: 317, snr: 49, used: true))
        core.ingest(.sky(SkyView(satellitesUsed: 1, satellitesVisible: 1, device: "/dev/ttyA", satellites: [satellite])))
        clock.advance(2)
        core.ingest(.sky(SkyView(satellitesUsed: 1, satellitesVisible: 1, device: "/dev/ttyB", satellites: [satellite])))

        let (root, rootLine) = try Self.status(core, peer: rootPeer)
        #expect(root.skies.map { $0.view.device } == ["/dev/ttyA", "/dev/ttyB"])
        #expect(root.skies.map(\.age) == [2, 0])
        #expect(root.skies.allSatisfy { $0.view.satellites == [satellite] })
        #expect(root.sky?.device == "/dev/ttyB", "the freshest")
        #expect(rootLine.contains(#""satellites":[{"PRN":7,"gnssid":0,"svid":7,"el":60,"az":317,"ss":49,"used":true}]"#), "\(rootLine)")

        let (other, otherLine) = try Self.status(core, peer: Self.reader)
        #expect(other.skies.map { $0.view.device } == ["/dev/ttyA", "/dev/ttyB"], "counts and DOPs per receiver for everyone")
        #expect(other.skies.allSatisfy { $0.view.satellites.isEmpty && $0.view.satellitesUsed == 1 })
        #expect(!otherLine.contains("satellites") && !otherLine.contains("\"PRN\""), "\(otherLine)")

        _ = core.handle(ControlRequest(.command(.services(on: false))), from: rootPeer)
        let (off, offLine) = try Self.status(core, peer: rootPeer)
        #expect(off.skies.allSatisfy { $0.view.satellites.isEmpty }, "no one sees the satellites with services off")
        #expect(!offLine.contains("\"PRN\""), "\(offLine)")
    }
}
