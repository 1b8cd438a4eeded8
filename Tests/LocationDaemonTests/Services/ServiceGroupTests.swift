import LocationDaemon
import Synchronization
import Testing

/// What the recording services did, in order.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// A service that runs until asked to stop (or fails / ends on request), noting each step.
final class RecordingService: Service {
    enum Behaviour: Sendable { case untilShutdown, failsAtOnce, endsAtOnce }
    let name: String
    let journal: Journal
    let behaviour: Behaviour
    private let stop = TickStream()

    init(_ name: String, _ journal: Journal, _ behaviour: Behaviour = .untilShutdown) {
        self.name = name
        self.journal = journal
        self.behaviour = behaviour
    }

    struct Failure: Error, CustomStringConvertible { var description: String { "the receiver caught fire" } }

    func run() async throws {
        journal.note("run \(name)")
        switch behaviour {
        case .failsAtOnce: throw Failure()
        case .endsAtOnce: return
        case .untilShutdown: for await _ in stop.ticks {}
        }
        journal.note("returned \(name)")
    }

    func shutdown() async {
        journal.note("shutdown \(name)")
        // Give run() a moment to prove the group waits for it before the next shutdown.
        try? await Task.sleep(nanoseconds: 20_000_000)
        stop.stop()
    }
}

@Suite struct ServiceGroupTests {
    @Test func servicesStopInReverseStartOrderEachFinishedBeforeTheNext() async throws {
        let journal = Journal()
        let group = ServiceGroup(
            services: ["core", "control", "source"].map { RecordingService($0, journal) }, signals: nil)
        Task {
            while journal.all.filter({ $0.hasPrefix("run") }).count < 3 { try? await Task.sleep(nanoseconds: 1_000_000) }
            group.triggerShutdown()
        }
        let reason = try await group.run()
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
