import Glibc

/// TPV → log line latency as a third gpsd client sees it: the probe watches
/// gpsd beside the daemon and notes when each TPV arrives, and watches the
/// daemon's log with inotify and notes when each line appears. A line's
/// latency is from the last TPV of its fix time that had arrived before it
/// (the report that completed the epoch) to the moment the line could be read.
/// Both clocks are this process's `CLOCK_MONOTONIC`; gpsd writes to its
/// clients one after another, so the probe and the daemon see a TPV within
/// microseconds of each other.
struct LatencyProbe {
    private let socketFD: Int32
    private let notifyFD: Int32
    private let logFD: Int32
    private var socketPending: [UInt8] = []
    private var logPending: [UInt8] = []
    /// When TPVs arrived, by their `time`.
    private var tpvArrivals: [String: [Double]] = [:]
    /// Seconds from completing TPV to log line, one per matched line.
    private(set) var latencies: [Double] = []
    /// Log lines with no TPV of their time seen before them.
    private(set) var unmatched = 0

    /// Connects to gpsd on 127.0.0.1:`port` and watches `log` (which must exist).
    init?(port: Int, log: String) {
        guard let fd = connectLoopback(port) else { return nil }
        let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        guard write(fd, watch, watch.count) == watch.count else {
            close(fd)
            return nil
        }
        let notify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        let file = open(log, O_RDONLY | O_CLOEXEC)
        guard notify >= 0, file >= 0, inotify_add_watch(notify, log, UInt32(IN_MODIFY)) >= 0 else {
            close(fd)
            if notify >= 0 { close(notify) }
            if file >= 0 { close(file) }
            return nil
        }
        lseek(file, 0, SEEK_END)
        socketFD = fd
        notifyFD = notify
        logFD = file
    }

    /// Reads whatever arrives for `seconds`.
    mutating func pump(for seconds: Double) {
        let deadline = now() + seconds
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let left = deadline - now(), left > 0 {
            var fds = [pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: notifyFD, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, Int32(max(1, (left * 1000).rounded(.up)))) > 0 else { continue }
            let at = now()
            if fds[0].revents != 0 {
                let n = read(socketFD, &buffer, buffer.count)
                if n > 0 { socketPending += buffer[0..<n] }
                for line in Self.lines(&socketPending) where Self.contains(line, Self.tpvClass) {
                    if let time = Self.time(in: line) { tpvArrivals[time, default: []].append(at) }
                }
            }
            if fds[1].revents != 0 {
                _ = read(notifyFD, &buffer, buffer.count)  // the events themselves say nothing more
                while case let n = read(logFD, &buffer, buffer.count), n > 0 { logPending += buffer[0..<n] }
                for line in Self.lines(&logPending) {
                    guard let time = Self.time(in: line),
                          let completing = tpvArrivals[time]?.last(where: { $0 <= at }) else {
                        unmatched += 1
                        continue
                    }
                    latencies.append(at - completing)
                }
            }
        }
    }

    /// The `q` quantile (0…1) of the latencies, in seconds.
    func quantile(_ q: Double) -> Double {
        guard !latencies.isEmpty else { return .nan }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
    }

    func finish() {
        Glibc.close(socketFD)
        Glibc.close(notifyFD)
        Glibc.close(logFD)
    }

    private static let tpvClass = Array("\"class\":\"TPV\"".utf8)
    private static let timeKey = Array("\"time\":\"".utf8)

    /// Takes the whole lines off the front of `pending`.
    private static func lines(_ pending: inout [UInt8]) -> [ArraySlice<UInt8>] {
        guard let last = pending.lastIndex(of: 10) else { return [] }
        let whole = Array(pending[...last])
        pending.removeFirst(last + 1)
        return whole.split(separator: 10)
    }

    private static func find(_ needle: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        guard line.count >= needle.count else { return nil }
        var i = line.startIndex
        while i + needle.count <= line.endIndex {
            if line[i] == needle[0] && line[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func contains(_ line: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        find(needle, in: line) != nil
    }

    /// The string value of `"time"` in a JSON line (gpsd's TPV and the log's record write it alike).
    private static func time(in line: ArraySlice<UInt8>) -> String? {
        guard let key = find(timeKey, in: line) else { return nil }
        let start = key + timeKey.count
        guard let end = line[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: line[start..<end], as: UTF8.self)
    }
}
