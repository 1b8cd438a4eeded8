#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import Synchronization

/// gpsd's own view of a session, for comparison: a plain TCP client that
/// sends `?WATCH={"enable":true,"json":true}` and records every JSON line
/// gpsd sends, without libgps or any of our code in between.
public final class GPSDJSONWatcher: Sendable {
    private let fd: Int32
    /// Each line and when it arrived (`monotonicNow()`, read as recv(2) returned it).
    private let lines = Mutex<[(text: String, at: Double)]>([])
    private let ended = Atomic<Bool>(false)

    /// Connects to gpsd on 127.0.0.1:`port` (without holding a thread while
    /// it does) and starts watching.
    public static func connect(port: Int) async throws(GPSFakeError) -> GPSDJSONWatcher {
        guard let fd = await LoopbackTCP.connect(port: port) else {
            throw GPSFakeError(description: "cannot connect to gpsd on port \(port)")
        }
        // The reader thread blocks in recv(2): make the socket blocking again.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let command = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        guard send(fd, command, command.count, Int32(MSG_NOSIGNAL)) == command.count else {
            close(fd)
            throw GPSFakeError(description: "cannot watch gpsd on port \(port)")
        }
        return GPSDJSONWatcher(fd: fd)
    }

    private init(fd: Int32) {
        self.fd = fd
        // A thread of its own: it blocks in recv(2) for the whole test.
        DedicatedThread.run { [self] in readLoop() }
    }

    deinit {
        close(fd)
    }

    /// Every line so far.
    public var received: [String] { lines.withLock { $0.map(\.text) } }

    /// Every line so far with the monotonic time it arrived: for a latency
    /// measured from gpsd's report (Benchmarks/GeoClueBenchmark).
    public var timedLines: [(text: String, at: Double)] { lines.withLock { $0 } }

    /// True once gpsd has acknowledged the watch: from then on it sends this
    /// client every report.
    public var isWatching: Bool { received.contains { $0.contains("\"class\":\"WATCH\"") } }

    /// True once gpsd closed the connection.
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Shuts the connection down; the reader ends.
    public func disconnect() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// The parsed reports of class `name`, in order.
    public func reports(_ name: String) -> [JSONValue] {
        received.compactMap { line in
            guard let value = try? JSONValue.parse(line), value["class"]?.stringValue == name else { return nil }
            return value
        }
    }

    /// The time of the first fix gpsd reported: the first TPV with a time and
    /// a 2D or 3D mode.
    public var firstFixTime: Double? {
        for tpv in reports("TPV") {
            guard let text = tpv["time"]?.stringValue, let time = UTCTime.parse(text),
                let mode = tpv["mode"]?.intValue, mode >= 2
            else { continue }
            return time
        }
        return nil
    }

    private func readLoop() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[..<n]
            let at = monotonicNow()
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.withLock { $0.append((line, at)) }
            }
        }
        ended.store(true, ordering: .releasing)
    }
}
