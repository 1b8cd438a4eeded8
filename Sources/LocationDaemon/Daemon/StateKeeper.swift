import LocationCore
import LocationProtocol
import LocationSystem

/// The daemon's side of `state.json`: loads it once at start (setting a
/// corrupt file aside), then saves the engine's state after `persist`
/// effects — at once when the last save is at least `minimumInterval` old,
/// otherwise on the next tick, so a burst of commands costs one save — and
/// always at shutdown. A failed save is reported once, retried every tick,
/// and its recovery reported; meanwhile `status(current:)` says what a
/// restart would undo (#32), and each start or end of failing is a change
/// for the watchers (`takeChange`).
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
    /// The state as the file on disk holds it (`nil`: there is no usable file).
    private var onDisk: SavedState?
    /// While saving fails: the latest error and since when (UTC seconds).
    private var failure: (error: String, since: Double)?
    private var changedFailing = false
    private let wall: () -> Double

    /// A keeper for `store`; `wall` stamps when saving began to fail.
    public init(store: StateStore, wall: @escaping () -> Double = { SystemClock.utc() }) {
        self.store = store
        self.wall = wall
    }

    /// Whether saving fails now.
    public var failing: Bool { failure != nil }

    /// Reads the state file: `nil` on a first start or when the file could
    /// not be used (it is then set aside and the reason logged at warning).
    public func load() -> SavedState? {
        switch store.load() {
        case .missing:
            Diagnostics.state.notice("no state file at \(store.path): first start, using the configuration's initial values")
            return nil
        case .setAside(let report):
            Diagnostics.state.log(report.level, report.description)
            return nil
        case .bytes(let bytes):
            do {
                var skipped: [SavedStateError] = []
                let state = try StateCodec.decode(bytes, skipped: &skipped)
                if !skipped.isEmpty {
                    // The file as it was stays for a person to look at; the next save writes the rest.
                    let aside = store.setAside(reason: "\(skipped.count) saved client\(skipped.count == 1 ? "" : "s") could not be read")
                    let kept = aside.movedTo.map { "the file as it was is kept at \($0)" } ?? "it could not be kept aside"
                    for problem in skipped { Diagnostics.state.warning("\(store.path): a saved client is skipped: \(problem)") }
                    Diagnostics.state.warning("\(store.path): \(state.clients.count) saved clients kept, \(skipped.count) skipped; \(kept)")
                    return state
                }
                onDisk = state
                return onDisk
            } catch {
                let report = store.setAside(reason: error.description)
                Diagnostics.state.log(report.level, report.description)
                return nil
            }
        }
    }

    /// A `persist` effect: saves now, or marks the state for the next tick when the last save
    /// was too recent — then probes the directory, so the reply to the change that caused it
    /// already knows whether it can be kept.
    public func changed(now: Double, state: () -> SavedState) {
        isDirty = true
        if now - lastSave >= Self.minimumInterval {
            save(now: now, state: state())
        } else if failure == nil {
            checkWritable(state())
        }
    }

    /// The tick: saves a pending change once `minimumInterval` has passed.
    public func saveIfDue(now: Double, state: () -> SavedState) {
        guard isDirty, now - lastSave >= Self.minimumInterval else { return }
        save(now: now, state: state())
    }

    /// When `saveIfDue` next has work (monotonic seconds; infinity: none
    /// until a change): a change, or a failed save, waits at most
    /// `minimumInterval` after the last attempt.
    public var nextDeadline: Double {
        isDirty ? lastSave + Self.minimumInterval : .infinity
    }

    /// Saves unconditionally (start-up, shutdown). Returns whether it worked.
    @discardableResult
    public func saveNow(_ state: SavedState, now: Double) -> Bool {
        isDirty = true
        return save(now: now, state: state)
    }

    /// Whether a save could be written now, without rewriting the file: at start with a state
    /// file loaded (another daemon may still own it when start-up fails later), and for a change
    /// whose save waits for the tick. When it could not,
    /// saving is failing from now on and the tick retries it as after any failed save.
    public func checkWritable(_ state: SavedState) {
        do throws(SystemError) {
            try store.probe()
        } catch {
            isDirty = true
            fail(error.description, state: state)
        }
    }

    /// How saving goes, with what a restart would undo of `current` while it fails.
    public func status(current: SavedState) -> StateSaveStatus {
        guard let failure else { return StateSaveStatus(ok: true, path: store.path) }
        return StateSaveStatus(
            ok: false, path: store.path, error: failure.error, since: failure.since,
            unsaved: current.undone(bySaved: onDisk))
    }

    /// Whether saving began to fail or works again since the last call.
    public func takeChange() -> Bool {
        defer { changedFailing = false }
        return changedFailing
    }

    @discardableResult
    private func save(now: Double, state: SavedState) -> Bool {
        lastSave = now
        do throws(SystemError) {
            try store.save(StateCodec.encode(state))
        } catch {
            fail(error.description, state: state)
            return false
        }
        isDirty = false
        saves += 1
        onDisk = state
        if failure != nil {
            failure = nil
            changedFailing = true
            Diagnostics.state.notice("saved the state to \(store.path) again")
        }
        return true
    }

    private func fail(_ error: String, state: SavedState) {
        let first = failure == nil
        failure = (error, failure?.since ?? wall())
        guard first else { return }
        changedFailing = true
        let kept = onDisk == nil ? "there is no state file yet" : "the previous state file is kept"
        Diagnostics.state.error(
            "cannot save the state to \(store.path) (\(error)); \(kept); "
                + "\(status(current: state).consequence); retrying every second")
    }
}
