#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import Synchronization

/// The access report's counts (docs/protocol.md, "Access report"): every
/// position handed to a client through a sink, counted per client, minute,
/// sink, accuracy and socket peer, kept in `state_dir/report.jsonl`.
///
/// * Counting is a lock and a dictionary update, on whichever thread hands
///   the position out (the engine's owner for logs and watchers, the program
///   server for programs).
/// * Once a minute is over, its counts are appended to the file and synced
///   (`flush`, from the core's tick, which comes by then: `nextFlush`; at
///   shutdown every count): a crash
///   loses at most the minute in progress. A torn last line is skipped.
/// * The file holds `report_days` days: older lines are dropped when the
///   daemon starts and once a day (the file rewritten whole,
///   `AtomicFileWriter`). One line is about 55 bytes: a client delivering
///   every second to its log alone writes 10 080 lines a week, about 560 kB.
final class AccessLedger: Sendable {
    /// The file's name in `state_dir`.
    static let fileName = "report.jsonl"

    private struct Key: Hashable {
        var minute: Int64
        var client: String
        var sink: ReportSink
        var accuracy: DeliveredAccuracy
        var peer: AccessPeer?
    }

    private struct State {
        var open: [Key: Int] = [:]
        /// The key counted last and where its count is in `open`: the next count of the same
        /// key (every fix to one client, all minute long) adds there without hashing the key
        /// again. Forgotten whenever a key leaves `open`, which moves the others.
        var last: (key: Key, index: Dictionary<Key, Int>.Index)?
        /// The earliest minute in `open` (nil when empty), so `nextFlush`, asked at every pause of
        /// a source, reads one field instead of walking the keys.
        var firstMinute: Int64?
        var prunedAt = 0.0
        var failing = false
    }

    /// The file.
    let path: String
    /// Days kept (`[daemon] report_days`).
    let days: Int
    private let state = Mutex(State())
    private let waker = Mutex<(@Sendable (Double) -> Void)?>(nil)

    /// The ledger at `state_dir/report.jsonl`, pruned to `days` days before `now` (UTC seconds).
    init(directory: String, days: Int, now: Double) {
        path = DaemonConfig.join(directory, Self.fileName)
        self.days = days
        prune(now: now)
    }

    /// Counts `n` positions handed to `client` through `sink` at `accuracy` at `time` (UTC seconds).
    func count(_ client: String, sink: ReportSink, accuracy: DeliveredAccuracy, peer: AccessPeer? = nil, time: Double, n: Int = 1) {
        let key = Key(minute: Self.minute(time), client: client, sink: sink, accuracy: accuracy, peer: peer)
        let first = state.withLock { state in
            if let last = state.last, last.key == key {
                state.open.values[last.index] += n
                return false
            }
            let first = state.open.isEmpty
            state.open[key, default: 0] += n
            state.last = (key, state.open.index(forKey: key)!)
            state.firstMinute = min(state.firstMinute ?? key.minute, key.minute)
            return first
        }
        // The first count since a flush: its minute's end is a time the daemon's tick must come
        // by, and the count may come on a thread (a program's, the broker's) that does not set it.
        if first, let wake = waker.withLock({ $0 }) { wake(Double(key.minute + 1) * 60 - time) }
    }

    /// `wake(seconds)` is called with the seconds from now to the end of the
    /// minute of the first count made after a flush (the daemon sets its
    /// tick by it; see `nextFlush`).
    func onFirstCount(_ wake: @escaping @Sendable (Double) -> Void) {
        waker.withLock { $0 = wake }
    }

    /// When `flush` next has work (UTC seconds; infinity: not until a
    /// count): the end of the earliest minute with counts, or a day after
    /// the last pruning.
    func nextFlush() -> Double {
        state.withLock { state in
            let minute = state.firstMinute.map { Double($0 + 1) * 60 } ?? .infinity
            return min(minute, state.prunedAt + 86_400)
        }
    }

    /// Appends the counts of every minute before the one of `now` (all of
    /// them when `all`) to the file and syncs it; prunes once a day.
    func flush(now: Double, all: Bool = false) {
        let current = Self.minute(now)
        let (lines, pruneDue) = state.withLock { state -> ([UInt8], Bool) in
            var bytes: [UInt8] = []
            for (key, n) in state.open where all || key.minute < current {
                bytes += Array(Self.count(key, n).line.utf8)
                state.open[key] = nil
            }
            if !bytes.isEmpty {
                state.last = nil
                var first: Int64?
                for key in state.open.keys { first = min(first ?? key.minute, key.minute) }
                state.firstMinute = first
            }
            let due = now - state.prunedAt >= 86_400
            return (bytes, due)
        }
        if !lines.isEmpty { append(lines) }
        if pruneDue { prune(now: now) }
    }

    /// The report from `since` (UTC seconds) on, of the clients `only` lets through.
    func report(since: Double, now: Double, only: (String) -> Bool) -> AccessReport {
        var counts = read()
        counts += state.withLock { state in state.open.map { Self.count($0.key, $0.value) } }
        var report = AccessReport(counts: counts, since: Self.minute(since), only: only)
        report.nameUsers(SocketGroup.userName)
        return report
    }

    /// Every count in the file.
    func read() -> [AccessCount] {
        readBytes().split(separator: 0x0A).compactMap { AccessCount(line: $0) }
    }

    private func readBytes() -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        // Bounded: a week of a busy daemon is a few MB; anything far larger is not ours to read whole.
        return (try? DescriptorIO.readAll(fd, limit: 256 << 20, name: path)) ?? []
    }

    private func append(_ bytes: [UInt8]) {
        do throws(SystemError) {
            let opened = try SafeFile.open(path, flags: O_WRONLY | O_APPEND, create: true, mode: 0o640)
            defer { close(opened.fd) }
            do {
                try DescriptorIO.writeAll(opened.fd, bytes)
            } catch {
                throw SystemError("write", errno: error.errno)
            }
            if fdatasync(opened.fd) != 0 { throw SystemError("fdatasync", errno: errno) }
            let recovered = state.withLock { state in
                defer { state.failing = false }
                return state.failing
            }
            if recovered { Diagnostics.report.notice("access report \(path): writing again") }
        } catch {
            let first = state.withLock { state in
                defer { state.failing = true }
                return !state.failing
            }
            if first { Diagnostics.report.warning("access report \(path): \(error); these counts are lost, and this is said once until it works again") }
        }
    }

    /// Drops the lines older than `days` days (and garbled ones), rewriting the file whole.
    private func prune(now: Double) {
        state.withLock { $0.prunedAt = now }
        let oldest = Self.minute(now - Double(days) * 86_400)
        let bytes = readBytes()
        let counts = bytes.split(separator: 0x0A).compactMap { AccessCount(line: $0) }
        let kept = counts.filter { $0.minute >= oldest }
        // A torn last line (a crash in mid-write) is dropped too, or the next append would join it.
        let torn = bytes.last.map { $0 != 0x0A } ?? false
        guard kept.count < counts.count || torn else { return }
        do throws(SystemError) {
            let writer = try AtomicFileWriter(path: path, mode: 0o640)
            try writer.write(Array(kept.map(\.line).joined().utf8))
            if let error = try writer.commit() { throw error }
        } catch {
            Diagnostics.report.warning("access report \(path): cannot drop the counts older than \(days) days: \(error)")
        }
    }

    private static func minute(_ time: Double) -> Int64 {
        Int64((max(0, time) / 60).rounded(.down))
    }

    private static func count(_ key: Key, _ n: Int) -> AccessCount {
        AccessCount(minute: key.minute, client: key.client, sink: key.sink, accuracy: key.accuracy, peer: key.peer, count: n)
    }
}
