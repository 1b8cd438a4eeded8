import Dispatch
import LocationCore
import Synchronization

/// The raw connections of one gpsd source (docs/sources.md, "Raw capture from gpsd"): while its
/// sink `wantsRawBytes` (a client has a `raw_log`), one connection per receiver gpsd lists, each
/// watching that receiver in gpsd's raw mode 2, whose bytes go to the sink as `.raw` named by the
/// receiver's path (as gpsd's fixes name it).
///
/// The gpsd reader says which receivers it wants (`want`): those gpsd lists (its `DEVICES`, then
/// each `DEVICE` as it opens or closes one) while gpsd has confirmed the reader's watch and the
/// sink wants raw bytes; none when gpsd goes away or the last `raw_log` is reloaded away. A thread
/// of their own (`gpsd-raw`, `GPSDRawReader`) opens, reads and closes them: started when a first
/// receiver is wanted, ended once none is (its connections closed), started again when one is.
/// With no `raw_log` nothing of this exists: no thread, no socket, no eventfd.
///
/// Safe from any thread: the gpsd reader calls `want` and `finish`, a stop `requestStop`.
final class GPSDRawLinks: Sendable {
    /// The raw thread that runs now: its wakeup (a change of `wanted`, a stop) and its end.
    struct Running: Sendable {
        let wakeup: Wakeup
        let done: DispatchSemaphore
    }

    private struct State {
        var wanted: Set<String> = []
        var running: Running?
        var stopping = false
        /// The receivers whose raw connection gpsd confirmed and that are open now.
        var streaming: Set<String> = []
        /// Raw threads started so far, and connections they tried to open.
        var threads = 0
        var attempts = 0
    }

    /// gpsd's host and port, as the source's.
    let host: String
    let port: Int
    private let state = Mutex(State())

    /// The raw connections of the gpsd source at `host:port`; none until `want`.
    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Asks for a raw connection to each of `devices` and none other (on the gpsd reader's thread;
    /// `control` is the reader's, whose sink takes the bytes). Starts the raw thread when it is not
    /// running and `devices` is not empty; wakes it otherwise. Nothing once stopping.
    func want(_ devices: Set<String>, control: GPSDReaderControl) {
        let start = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.wanted = devices
            if let running = state.running {
                running.wakeup.signal()
                return false
            }
            return !devices.isEmpty
        }
        guard start else { return }
        let running: Running
        do {
            running = Running(wakeup: try Wakeup(), done: DispatchSemaphore(value: 0))
        } catch {
            Diagnostics.gpsd.error("cannot start the raw capture from gpsd: \(error); its receivers' bytes are not kept")
            return
        }
        // Only this thread starts one: the state cannot have gained a running thread meanwhile.
        let installed = state.withLock { state -> Bool in
            guard !state.stopping, !state.wanted.isEmpty, state.running == nil else { return false }
            state.running = running
            state.threads += 1
            return true
        }
        guard installed else { return }
        do {
            try DaemonThread.start(name: "gpsd-raw") { [self] in
                GPSDRawReader(links: self, control: control, wakeup: running.wakeup).run()
                running.done.signal()
            }
        } catch {
            Diagnostics.gpsd.error("cannot start the raw capture from gpsd: \(error); its receivers' bytes are not kept")
            state.withLock { $0.running = nil }
            running.done.signal()
        }
    }

    /// Closes every raw connection and ends the raw thread, without waiting; nothing starts again.
    func requestStop() {
        state.withLock { state in
            state.stopping = true
            state.wanted = []
            state.running?.wakeup.signal()
        }
    }

    /// Stops (`requestStop`) and waits up to `grace` seconds for the raw thread to end (the gpsd
    /// reader's last act before it finishes its sink).
    func finish(grace: Double) {
        requestStop()
        guard let done = state.withLock({ $0.running?.done }) else { return }
        _ = done.wait(timeout: .now() + .nanoseconds(Int(grace * 1e9)))
    }

    // MARK: - The raw thread's side

    /// The receivers wanted now; `nil` once stopping.
    func wanted() -> Set<String>? {
        state.withLock { $0.stopping ? nil : $0.wanted }
    }

    /// The raw thread has closed every connection: it ends when none is wanted still (true), else
    /// goes on (a `want` came meanwhile).
    func mayEnd() -> Bool {
        state.withLock { state in
            guard state.stopping || state.wanted.isEmpty else { return false }
            state.running = nil
            return true
        }
    }

    /// The raw thread tries to open a connection.
    func attempting() {
        state.withLock { $0.attempts += 1 }
    }

    /// The raw connection of `device` streams (gpsd confirmed it) or is closed.
    func streaming(_ device: String, _ open: Bool) {
        state.withLock { state in
            if open { state.streaming.insert(device) } else { state.streaming.remove(device) }
        }
    }

    // MARK: - For status and tests

    /// The receivers whose raw connection gpsd confirmed and that are open now.
    var streamingDevices: Set<String> { state.withLock { $0.streaming } }

    /// Whether the raw thread runs.
    var isRunning: Bool { state.withLock { $0.running != nil } }

    /// Raw threads started so far.
    var threadsStarted: Int { state.withLock { $0.threads } }

    /// Connections the raw threads tried to open so far.
    var attempts: Int { state.withLock { $0.attempts } }
}
