import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Synchronization
import TestSupport

/// Collects a source's events as they arrive, so a test can wait (with a
/// deadline) for what it expects and then inspect the whole sequence.
final class SourceEventRecorder: Sendable {
    private let events = Mutex<[SourceEvent]>([])
    private let finished = Atomic<Bool>(false)

    /// Starts draining `stream` in a task of its own.
    init(_ stream: AsyncStream<SourceEvent>) {
        Task { [self] in
            for await event in stream {
                events.withLock { $0.append(event) }
            }
            finished.store(true, ordering: .releasing)
        }
    }

    /// Everything received so far.
    var snapshot: [SourceEvent] { events.withLock { $0 } }

    /// The fixes received so far.
    var fixes: [Fix] {
        snapshot.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }

    /// The state changes received so far.
    var states: [(SourceState, String)] {
        snapshot.compactMap { if case .state(let state, let detail) = $0 { (state, detail) } else { nil } }
    }

    /// True once the stream has finished.
    var hasFinished: Bool { finished.load(ordering: .acquiring) }

    /// Waits until `condition` holds for the events so far, or `timeout`
    /// seconds pass (a bound for a loaded machine). Returns whether it held.
    @discardableResult
    func wait(timeout: Double = 60, until condition: ([SourceEvent]) -> Bool) async -> Bool {
        await waitUntil(timeout: timeout, every: 0.02) { condition(snapshot) }
    }

    /// Waits until the stream has finished, or `timeout` seconds pass.
    func waitForFinish(timeout: Double = 60) async -> Bool {
        await wait(timeout: timeout) { _ in self.hasFinished }
    }
}

extension [SourceEvent] {
    /// The fixes among these events.
    var fixes: [Fix] { compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }

    /// The states among these events.
    var states: [SourceState] { compactMap { if case .state(let state, _) = $0 { state } else { nil } } }
}
