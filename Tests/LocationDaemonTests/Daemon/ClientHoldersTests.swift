import LocationCore
import LocationProtocol
@testable import LocationDaemon
import Testing
import TestSupport

/// One registry of who holds a client, in the core (#47): every face's holders together decide
/// the client's session and updates, so one face's going never silences another's.
@Suite(.timeLimit(.minutes(10))) struct ClientHoldersTests {
    /// A client with a log, a program socket and a GeoClue id; `keep` adds `updating = on` and `in_use = on`.
    static func survey(keep: Bool) -> String {
        """
        [client.survey]
        log = survey.jsonl
        distance_filter = none
        desired_accuracy = best
        authorization = always
        usage = Surveys the site
        gpsd_socket = /run/locationd/survey.sock
        geoclue_id = org.example.Survey
        \(keep ? "updating = on\nin_use = on" : "")
        """
    }

    /// The bus peer and the program, both survey's app (the faces' `AppSide` peers).
    let app = ControlPeer(pid: 4242, uid: 1000, gid: 1000, mayChange: false, apps: ["survey"])
    let bus = ClientHolder(.geoclue, "/org/freedesktop/GeoClue2/Client/1", updates: true)
    let program = ClientHolder(.program, "7", updates: true)

    private func state(_ core: DaemonCore) throws -> (inUse: Bool, updating: Bool) {
        let client = try #require(core.statusReport().status.clients.first { $0.authorization.client == "survey" })
        return (client.inUse, client.updating)
    }

    @Test func aBusAppsStartAndStopNeverSilenceAClientTheConfigurationKeepsOn() throws {
        let dir = try ScratchDirectory("holders-kept")
        let config = try daemonConfig(in: dir, clients: Self.survey(keep: true))
        let programs = try #require(ProgramFace.make(config: config))
        let core = try DaemonCore(config: config, seed: 1, clock: ManualClock().clock, faces: [programs])
        programs.sinks.setWatched("survey", true)
        #expect(core.hold("survey", by: bus, as: app, id: nil).error == nil)
        #expect(core.release("survey", by: bus, as: app, id: nil).error == nil)
        #expect(try state(core) == (true, true), "in_use = on and updating = on hold whatever the bus does")
        core.ingest(.fix(walkFix(0)))
        core.shutdown()
        #expect(try logRecords(dir.file("log/survey.jsonl")).count == 1, "the log still gets its fixes")
        #expect(programs.sinks.take().records.count == 1, "and so do the program sockets")
    }

    @Test func theSessionEndsOnlyWhenTheLastHolderOfEveryFaceHasGone() throws {
        let dir = try ScratchDirectory("holders-last")
        let clock = ManualClock()
        let config = try daemonConfig(in: dir, clients: Self.survey(keep: false))
        let programs = try #require(ProgramFace.make(config: config))
        let core = try DaemonCore(config: config, seed: 1, clock: clock.clock, faces: [programs])
        programs.sinks.setWatched("survey", true)
        #expect(try state(core) == (false, false))
        // A program watches: the first holder begins the session and starts the updates.
        #expect(core.hold("survey", by: program, as: app, id: nil).error == nil)
        #expect(try state(core) == (true, true))
        // A bus app starts and stops: the program still holds the client.
        core.hold("survey", by: bus, as: app, id: nil)
        core.release("survey", by: bus, as: app, id: nil)
        #expect(try state(core) == (true, true) && core.holderCount(of: "survey") == 1)
        core.ingest(.fix(walkFix(0)))
        #expect(programs.sinks.take().records.count == 1, "the program's deliveries go on")
        // A control connection holds the session only; the program's going stops the updates, not the session.
        let control = ClientHolder(.control, "3", updates: false)
        core.hold("survey", by: control, as: app, id: nil)
        core.release("survey", by: program, as: app, id: nil)
        #expect(try state(core) == (true, false))
        // A release by a holder that holds nothing changes nothing.
        core.release("survey", by: program, as: app, id: nil)
        #expect(try state(core) == (true, false))
        core.release("survey", by: control, as: app, id: nil)
        #expect(try state(core) == (false, false) && core.holderCount(of: "survey") == 0)
        core.shutdown()
        #expect(try logRecords(dir.file("log/survey.jsonl")).count == 1)
    }

    @Test func anAppsOwnStopEndsNothingAnotherFaceHoldsButTheOperatorsDoes() throws {
        let dir = try ScratchDirectory("holders-stop")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.survey(keep: false)), seed: 1, clock: ManualClock().clock)
        core.hold("survey", by: program, as: app, id: nil)
        let kept = core.handle(request(.stop(client: "survey")), from: app)
        // The message names the faces whose holders hold it (each face's `ClientHolder.Face`).
        #expect(kept.error == nil && kept.line().contains("keeps updating: 1 holder of its faces (programs) holds it"), "\(kept.line())")
        #expect(try state(core) == (true, true), "the program's deliveries go on")
        #expect(core.handle(request(.stop(client: "survey")), from: rootPeer).error == nil)
        #expect(try state(core) == (true, false), "the operator's stop is the operator's")
        core.shutdown()
    }

    @Test func aHoldIsTheAppsSideAndRefusedToAnyoneElse() throws {
        let dir = try ScratchDirectory("holders-role")
        let core = try DaemonCore(config: try daemonConfig(in: dir, clients: Self.survey(keep: false)), seed: 1, clock: ManualClock().clock)
        let stranger = ControlPeer(pid: 99, uid: 2000, gid: 2000, mayChange: false, apps: ["logger"])
        let refused = core.hold("survey", by: bus, as: stranger, id: nil)
        #expect(refused.error?.code == ProtocolError.Code.notAuthorized.rawValue, "\(refused.line())")
        #expect(try state(core) == (false, false) && core.holderCount(of: "survey") == 0)
        core.shutdown()
    }
}
