import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// What the recording services did, in order.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// A service that runs until asked to stop (or fails / ends on request), noting each step.
/// Asked to stop, its `run()` returns once `returning` is open (open from the start unless
/// the test holds it).
final class RecordingService: Service {
    enum Behaviour: Sendable { case untilShutdown, failsAtOnce, endsAtOnce }
    let name: String
    let journal: Journal
    let behaviour: Behaviour
    let returning = Gate()
    private let stop = TickStream()

    init(_ name: String, _ journal: Journal, _ behaviour: Behaviour = .untilShutdown, held: Bool = false) {
        self.name = name
        self.journal = journal
        self.behaviour = behaviour
        if !held { returning.open() }
    }

    struct Failure: Error, CustomStringConvertible { var description: String { "the receiver caught fire" } }

    func run() async throws {
        journal.note("run \(name)")
        switch behaviour {
        case .failsAtOnce: throw Failure()
        case .endsAtOnce: return
        case .untilShutdown: for await _ in stop.ticks {}
        }
        await returning.wait()
        journal.note("returned \(name)")
    }

    func shutdown() async {
        journal.note("shutdown \(name)")
        stop.stop()
    }
}

@Suite(.timeLimit(.minutes(10))) struct ServiceGroupTests {
    @Test func servicesStopInReverseStartOrderEachFinishedBeforeTheNext() async throws {
        let journal = Journal()
        let services = ["core", "control", "source"].map { RecordingService($0, journal, held: true) }
        let group = ServiceGroup(services: services, signals: nil)
        // The group and its services run on an executor of their own: when it is quiet, the group
        // is waiting and will not go on by itself.
        let executor = QuietExecutor()
        let running = Task(executorPreference: executor) { try await group.run() }
        try #require(await waitUntil { journal.all.filter { $0.hasPrefix("run") }.count == 3 })
        group.triggerShutdown()
        // Each service asked to stop holds its run() open: the group must wait for it, asking no
        // other service meanwhile, until the test lets it return.
        for service in services.reversed() {
            try #require(await waitUntil { executor.isQuiet && journal.all.contains("shutdown \(service.name)") })
            #expect(journal.all.last == "shutdown \(service.name)", "asked the next before \(service.name) returned")
            service.returning.open()
        }
        let reason = try await running.value
        #expect("\(reason)" == "a shutdown request")
        #expect(
            journal.all.filter { !$0.hasPrefix("run") } == [
                "shutdown source", "returned source", "shutdown control", "returned control", "shutdown core",
                "returned core",
            ])
    }

    @Test func sigtermAndSigintStopTheGroupAndSighupCallsTheHandler() async throws {
        for stopSignal in [Signal.terminate, .interrupt] {
            let journal = Journal()
            let (signals, send) = AsyncStream.makeStream(of: Signal.self)
            let group = ServiceGroup(
                services: [RecordingService("core", journal)], signals: signals,
                onHangup: { journal.note("hangup") }, onStopping: { journal.note("stopping \($0)") })
            send.yield(.hangup)
            send.yield(.hangup)
            send.yield(stopSignal)
            let reason = try await group.run()
            #expect("\(reason)" == "\(stopSignal)")
            #expect(journal.all.filter { $0 != "run core" } == ["hangup", "hangup", "stopping \(stopSignal)", "shutdown core", "returned core"])
        }
    }

    @Test func aFailingServiceStopsTheOthersAndTheGroupThrowsItsError() async throws {
        let journal = Journal()
        let group = ServiceGroup(
            services: [RecordingService("core", journal), RecordingService("source", journal, .failsAtOnce)],
            signals: nil)
        await #expect {
            try await group.run()
        } throws: { error in
            "\(error)" == "the source service failed: the receiver caught fire"
        }
        #expect(journal.all.contains("shutdown core"))
        #expect(!journal.all.contains("shutdown source"))
    }

    @Test func aServiceThatEndsByItselfStopsTheGroupCleanly() async throws {
        let journal = Journal()
        let group = ServiceGroup(
            services: [RecordingService("core", journal), RecordingService("oneshot", journal, .endsAtOnce)],
            signals: nil)
        let reason = try await group.run()
        #expect("\(reason)" == "the oneshot service ended")
        #expect(journal.all.suffix(2) == ["shutdown core", "returned core"])
    }
}
