import LocationCore
import LocationSystem

/// The daemon's side of `state.json`: loads it once at start (setting a
/// corrupt file aside), then saves the engine's state after `persist`
/// effects — at once when the last save is at least `minimumInterval` old,
/// otherwise on the next tick, so a burst of commands costs one save — and
/// always at shutdown. A failed save is reported once, retried every tick,
/// and its recovery reported.
///
/// Not thread-safe: the daemon core owns it.
public final class StateKeeper {
    /// Saves come at most this often (seconds of the monotonic clock), except at shutdown.
    public static let minimumInterval = 1.0

    /// The state file.
    public let store: StateStore
    /// Whether a change waits to be saved.
    public private(set) var isDirty = false
    /// Saves written so far.
    public private(set) var saves = 0
    private var lastSave = -Double.infinity
    private var failing = false

    /// A keeper for `store`.
    public init(store: StateStore) {
        self.store = store
    }

    /// Reads the state file: `nil` on a first start or when the file could
    /// not be used (it is then set aside and the reason logged at warning).
    public func load() -> SavedState? {
        switch store.load() {
        case .missing:
            Diagnostics.notice("no state file at \(store.path): first start, using the configuration's initial values")
            return nil
        case .setAside(let report):
            Diagnostics.log(report.level, report.description)
            return nil
        case .bytes(let bytes):
            do {
                return try StateCodec.decode(bytes)
            } catch {
                let report = store.setAside(reason: error.description)
                Diagnostics.log(report.level, report.description)
                return nil
            }
        }
    }

    /// A `persist` effect: saves now, or marks the state for the next tick when the last save was too recent.
    public func changed(now: Double, state: () -> SavedState) {
        isDirty = true
        if now - lastSave >= Self.minimumInterval { save(now: now, state: state()) }
    }

    /// The tick: saves a pending change once `minimumInterval` has passed.
    public func saveIfDue(now: Double, state: () -> SavedState) {
        guard isDirty, now - lastSave >= Self.minimumInterval else { return }
        save(now: now, state: state())
    }

    /// Saves unconditionally (start-up, shutdown). Returns whether it worked.
    @discardableResult
    public func saveNow(_ state: SavedState, now: Double) -> Bool {
        isDirty = true
        return save(now: now, state: state)
    }

    @discardableResult
    private func save(now: Double, state: SavedState) -> Bool {
        lastSave = now
        do throws(SystemError) {
            try store.save(StateCodec.encode(state))
        } catch {
            report("cannot save the state to \(store.path) (\(error)); the previous state file is kept; retrying every second")
            return false
        }
        isDirty = false
        saves += 1
        if failing {
            failing = false
            Diagnostics.notice("saved the state to \(store.path) again")
        }
        return true
    }

    private func report(_ message: String) {
        guard !failing else { return }
        failing = true
        Diagnostics.error(message)
    }
}
