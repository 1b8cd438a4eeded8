#if canImport(Glibc)
import Glibc
#endif
import LocationCore
@testable import LocationDaemon
import Testing
import TestSupport

/// The faces as the daemon registers them (`Face`, `FaceList`): a daemon holds only the faces its
/// configuration uses, and the clients a face makes are laid over every configuration the core
/// takes — at start, on SIGHUP and when the face says they changed.
@Suite(.timeLimit(.minutes(10))) struct FaceListTests {
    static let geoclue = "[geoclue]\n\n" + DaemonFixtures.logger

    @Test func aDaemonHoldsOnlyTheFacesItsConfigurationUses() throws {
        let dir = try ScratchDirectory("faces-used")
        #expect(FaceList.make(try daemonConfig(in: dir)).isEmpty, "a logger alone: no face but the logs and the watchers")
        let bus = FaceList.make(try daemonConfig(in: dir, clients: Self.geoclue))
        #expect(bus.map(\.name) == ["geoclue"])
        let programs = FaceList.make(try daemonConfig(in: dir, clients: DaemonFixtures.logger + "\ngpsd_socket = \(dir.file("l.sock"))\n"))
        #expect(programs.map(\.name) == ["programs"])
    }

    @Test func aFacesClientsAreLaidOverStartReloadAndReapply() throws {
        let dir = try ScratchDirectory("faces-overlay")
        let config = try daemonConfig(in: dir, clients: Self.geoclue)
        #expect(mkdir(config.stateDirectory, 0o700) == 0)
        let face = try #require(GeoClueFace.make(config: config))
        _ = try face.apps.client(desktopId: "org.gnome.Maps", uid: 1000, configured: ["logger"]).get()
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock, faces: [face])
        defer { core.shutdown() }
        #expect(core.config.clients.map(\.name) == ["logger", "gc-org_gnome_Maps-1000"], "at start")
        core.reload(config)
        #expect(core.config.clients.map(\.name) == ["logger", "gc-org_gnome_Maps-1000"], "after a reload of the file")
        _ = try face.apps.client(desktopId: "org.example.Survey", uid: 1000, configured: ["logger"]).get()
        core.reapplyFaces()
        #expect(core.config.clients.map(\.name) == ["logger", "gc-org_gnome_Maps-1000", "gc-org_example_Survey-1000"], "a new app")
    }

    @Test func eachFaceNamesItsRestartOnlyChanges() throws {
        let dir = try ScratchDirectory("faces-reload")
        let running = try daemonConfig(in: dir, clients: Self.geoclue)
        let reloaded = try daemonConfig(in: dir, clients: "[geoclue]\nnew_apps = deny\n\n" + DaemonFixtures.logger)
        let reload = ConfigReload(running: running, reloaded: reloaded)
        #expect(reload.needRestart == ["[geoclue]"])
        #expect(reload.effective.geoclue == running.geoclue, "the running [geoclue] is kept")
    }
}
