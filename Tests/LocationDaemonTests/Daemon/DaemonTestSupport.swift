#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// A configuration whose socket, state and logs live in `dir`, with the
/// given client sections (INI text after `[client.NAME]` headers).
func daemonConfig(
    in dir: ScratchDirectory, clients: String = DaemonFixtures.logger, daemonExtra: String = "", fsync: String = "always"
) throws -> DaemonConfig {
    let text = """
        [daemon]
        socket = \(dir.file("control.sock"))
        socket_group =
        state_dir = \(dir.file("state"))
        log_dir = \(dir.file("log"))
        fsync = \(fsync)
        \(daemonExtra)

        [source]
        type = gpsd
        host = 127.0.0.1
        port = 2947

        \(clients)
        """
    try dir.write("locationd.conf", text)
    return try DaemonConfig.parse(text, file: dir.file("locationd.conf"))
}

/// Client sections the daemon tests use.
enum DaemonFixtures {
    /// A logger that receives every fix from the start.
    static let logger = """
        [client.logger]
        log = logger.jsonl
        distance_filter = none
        desired_accuracy = best
        authorization = always
        updating = on
        in_use = on
        usage = Logs coordinates for field tests
        """

    /// The shipped logger: asks first, 5 m filter.
    static let askingLogger = """
        [client.logger]
        log = logger.jsonl
        distance_filter = 5
        desired_accuracy = kilometer
        authorization = ask
        updating = on
        in_use = on
        usage = Logs coordinates for field tests
        """
}

/// A clock the test moves by hand: monotonic seconds and wall seconds advance together.
final class ManualClock: Sendable {
    private let seconds = Mutex(1000.0)
    /// Wall time at monotonic 1000.
    static let wallOffset = 1_773_532_800.0 - 1000

    var clock: DaemonClock {
        DaemonClock(
            monotonic: { [self] in seconds.withLock { $0 } },
            wall: { [self] in seconds.withLock { $0 } + ManualClock.wallOffset })
    }

    func advance(_ by: Double) {
        seconds.withLock { $0 += by }
    }
}

/// A 3D fix `i` seconds into the test's walk, `metres` north of a start point.
func walkFix(_ i: Int, metres: Double = 0, mode: FixMode = .threeD) -> Fix {
    Fix(
        time: 1_773_532_800 + Double(i), mode: mode, latitude: 35.681199 + metres / 111_000, longitude: 139.767067,
        altitude: 40, horizontalError: 3.5, verticalError: 6, speed: 1.2, course: 90, satellitesUsed: 9)
}

/// A watch sink that records lines, and refuses them once `capacity` lines are queued.
final class RecordingSink: WatchSink {
    private let state = Mutex<[[UInt8]]>([])
    let capacity: Int

    init(capacity: Int = .max) {
        self.capacity = capacity
    }

    func send(_ line: [UInt8]) -> Bool {
        state.withLock { lines in
            guard lines.count < capacity else { return false }
            lines.append(line)
            return true
        }
    }

    /// The lines so far, as JSON values.
    var values: [JSONValue] {
        state.withLock { $0 }.compactMap { try? JSONValue.parse($0) }
    }

    /// The lines so far, as text.
    var texts: [String] {
        state.withLock { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The records of a log file, or an issue for each bad line.
func logRecords(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [LogRecord] {
    let (records, problems) = LogFileRecords.parse(try FileIO.read(path), name: path)
    for problem in problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    return records
}

/// A peer that may change state.
let rootPeer = ControlPeer(pid: 1, uid: 0, gid: 0, mayChange: true)

/// A control request for `command`.
func request(_ command: Command, id: Int = 1) -> ControlRequest {
    ControlRequest(id: .number(Double(id)), .command(command))
}
