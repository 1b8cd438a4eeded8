#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// Collects a source's events on a task, for tests to wait on (every wait
/// has a deadline).
final class NMEAEventLog: Sendable {
    private final class Storage: Sendable {
        let state = Mutex<(events: [SourceEvent], ended: Bool)>(([], false))
    }

    private let storage = Storage()

    init(_ stream: AsyncStream<SourceEvent>) {
        let storage = self.storage
        Task {
            for await event in stream { storage.state.withLock { $0.events.append(event) } }
            storage.state.withLock { $0.ended = true }
        }
    }

    var events: [SourceEvent] { storage.state.withLock { $0.events } }
    var ended: Bool { storage.state.withLock { $0.ended } }
    var fixes: [Fix] { events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }
    var states: [(SourceState, String)] {
        events.compactMap { if case .state(let s, let detail) = $0 { (s, detail) } else { nil } }
    }

    /// Waits until `condition` holds (true) or `timeout` seconds pass (false).
    /// Sleeps without holding a thread, so the collecting task can run.
    func wait(timeout: Double = 60, until condition: (NMEAEventLog) -> Bool) async -> Bool {
        await waitUntil(timeout: timeout) { condition(self) }
    }

    /// Number of state events equal to `state` whose detail contains `text`.
    func count(_ state: SourceState, containing text: String = "") -> Int {
        states.filter { $0.0 == state && (text.isEmpty || $0.1.contains(text)) }.count
    }
}

/// A fake receiver and a source reading it at `baud`, returned once the source says it is connected
/// and the terminal it set up is released. The caller stops the source.
func connectedReceiver(baud: Int = 9600) async throws
    -> (receiver: NMEAFakeReceiver, source: NMEADeviceSource, log: NMEAEventLog)
{
    let receiver = try NMEAFakeReceiver()
    let source = NMEADeviceSource(path: receiver.devicePath, baud: baud)
    let log = NMEAEventLog(source.start())
    #expect(await log.wait { $0.count(.connected) == 1 })
    receiver.releaseTerminal()
    return (receiver, source, log)
}
