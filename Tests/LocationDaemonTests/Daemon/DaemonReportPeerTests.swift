#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationDaemon
import LocationTools
import Testing
import TestSupport

/// #39: the access report names a watcher by what the kernel and the user database say of it: its
/// user's name and its process name, not only a uid.
@Suite(.timeLimit(.minutes(10))) struct DaemonReportPeerTests {
    @Test func aWatchPeerIsReportedWithItsUserNameAndProcessName() throws {
        let dir = try ScratchDirectory("report-peer")
        let clock = ManualClock()
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: clock.clock)
        // This test process, as uid 65534 (`nobody` on Debian) would be seen: its pid gives its name.
        let peer = ControlPeer(pid: getpid(), uid: 65534, gid: 65534, mayChange: true)
        let sink = RecordingSink()
        _ = core.watch(ControlRequest(.watch(client: nil)), client: nil, from: peer, sink: sink)
        for i in 0..<3 {
            clock.advance(1)
            core.ingest(.fix(walkFix(i, metres: Double(i) * 10)))
        }
        try #require(sink.values.contains { $0["event"] == "location" })
        let reply = core.handle(ControlRequest(.report(client: nil, since: nil)), from: rootPeer)
        let peers = reply["clients"]?.arrayValue?.first?["peers"]?.arrayValue ?? []
        let watcher = try #require(peers.first { $0["sink"] == "watch" }, "\(reply.line())")
        let comm = try FileIO.read("/proc/self/comm")
        let process = String(decoding: comm, as: UTF8.self).split(separator: "\n").first.map(String.init)
        #expect(watcher["uid"]?.numberValue == 65534)
        #expect(watcher["user"]?.stringValue == "nobody", "\(watcher)")
        #expect(watcher["name"]?.stringValue == process, "\(watcher)")
        let text = ReportRenderer.render(reply["clients"])
        #expect(text.contains("  nobody (\(process ?? "?")) via watch: "), "\(text)")
    }
}
