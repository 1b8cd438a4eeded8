// A real gpsd for tests, fed by gpsd's own /usr/bin/gpsfake.
//
// Self-contained on purpose (Glibc only): copy this file into another test
// target as it is.
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Why gpsfake could not be run.
struct GPSFakeError: Error, CustomStringConvertible {
    /// What failed, with gpsfake's own output when there was some.
    var description: String
}

/// At most `limit` gpsfake runs at once in this test process. Swift Testing
/// runs suites in parallel; a dozen gpsfake + gpsd pairs starting together on
/// a two-core machine miss their start deadlines. A run holds its slot from
/// `start` until `stop`.
final class GPSFakeSlots: Sendable {
    /// The process-wide slots.
    static let shared = GPSFakeSlots(limit: 3)

    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    private init(limit: Int) { state = Mutex(State(free: limit)) }

    /// Waits for a free slot.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the next waiter, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

/// One `/usr/bin/gpsfake` process, and the private gpsd it spawns, replaying
/// an NMEA log on a free TCP port.
///
/// gpsfake runs gpsd with `-n` (read the device before any client watches),
/// `-1` (play the log once, then `-W` seconds later exit and kill gpsd) or
/// endlessly, and `-c` seconds between sentences. A *gated* run also passes
/// `-i`, which makes gpsfake wait for a line on stdin before each sentence:
/// the harness holds those lines back until `release()`, so clients can
/// connect and start watching before the first sentence reaches gpsd, and a
/// test sees the whole log rather than whatever was left when it attached.
///
/// gpsfake and gpsd run in a process group of their own; `stop()` (and
/// deinit) signals the whole group and reaps gpsfake, with bounded waits.
/// Start with `GPSFake.start(log:options:)`.
final class GPSFake {
    /// Where Debian's gpsd-clients installs gpsfake.
    static let gpsfakePath = "/usr/bin/gpsfake"
    /// Where Debian's gpsd installs the daemon gpsfake runs.
    static let gpsdPath = "/usr/sbin/gpsd"
    /// gpsfake's Python half (python3-gps).
    static let pythonModule = "/usr/lib/python3/dist-packages/gps/fake.py"

    /// Why gpsfake cannot run here, or `nil` when it can.
    static let unavailableReason: String? = {
        if access(gpsfakePath, X_OK) != 0 { return "\(gpsfakePath) is missing (install gpsd-clients)" }
        if access(gpsdPath, X_OK) != 0 { return "\(gpsdPath) is missing (install gpsd)" }
        if access(pythonModule, R_OK) != 0 { return "\(pythonModule) is missing (install python3-gps)" }
        return nil
    }()

    /// Whether gpsfake, gpsd and python3-gps are installed.
    static var isAvailable: Bool { unavailableReason == nil }

    /// How to run gpsfake.
    struct Options {
        /// Seconds between sentences (`-c`).
        var cycle: Double = 0.005
        /// Play the log once (`-1`) rather than in a loop.
        var once = true
        /// Hold every sentence until `release()` (`-i`). Needs `once`.
        var gated = true
        /// Seconds gpsfake waits after the log before exiting (`-W`).
        var linger = 1
        /// The port; `nil` picks a free one.
        var port: Int?
    }

    /// The TCP port gpsd listens on (127.0.0.1).
    let port: Int
    /// gpsfake's pid, also its process group id.
    let pid: pid_t
    /// gpsfake's stdout and stderr, for failure messages.
    let outputPath: String
    private var gate: Int32
    private let prompts: Int
    private var reaped = false
    private var holdsSlot = true

    /// Starts gpsfake on `log` and waits (up to `startTimeout` seconds, without
    /// blocking a thread) until gpsd accepts connections.
    static func start(log: String, options: Options = Options(), startTimeout: Double = 15) async throws(GPSFakeError)
        -> GPSFake
    {
        await GPSFakeSlots.shared.acquire()
        let fake: GPSFake
        do {
            fake = try GPSFake(log: log, options: options)
        } catch {
            GPSFakeSlots.shared.release()
            throw error
        }
        let deadline = now() + startTimeout
        while !accepts(port: fake.port) {
            if fake.hasExited() || now() > deadline {
                let output = fake.output
                fake.stop()
                throw GPSFakeError(description: "gpsd from gpsfake did not listen on port \(fake.port): \(output)")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        // gpsd listens before gpsfake has handed it the receiver, and it
        // flushes the receiver when it opens it: release before that, and the
        // first sentences are gone. With -n gpsd opens a receiver as it adds
        // it, so wait until gpsd lists one.
        while !GPSFake.hasReceiver(port: fake.port) {
            if fake.hasExited() || now() > deadline {
                let output = fake.output
                fake.stop()
                throw GPSFakeError(description: "gpsd on port \(fake.port) never got gpsfake's receiver: \(output)")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return fake
    }

    /// Starts gpsfake on `log`; it may not be listening yet.
    private init(log: String, options: Options) throws(GPSFakeError) {
        if let reason = GPSFake.unavailableReason { throw GPSFakeError(description: reason) }
        guard !options.gated || options.once else {
            throw GPSFakeError(description: "a gated gpsfake must play its log once")
        }
        guard let lines = GPSFake.lineCount(log) else {
            throw GPSFakeError(description: "cannot read \(log)")
        }
        // Each sentence consumes one line from the gate; more is harmless.
        prompts = lines + 16
        guard !options.gated || prompts < 60_000 else {
            throw GPSFakeError(description: "\(log) has too many lines for a gated run")
        }
        let port: Int
        if let chosen = options.port {
            port = chosen
        } else {
            port = try GPSFake.freePort()
        }
        self.port = port
        outputPath = GPSFake.temporaryPath("gpsfake-\(port)-out")

        var arguments = [
            GPSFake.gpsfakePath, "-q", "-n", "-P", String(port), "-c", String(options.cycle),
            "-W", String(options.linger),
        ]
        if options.once { arguments.append("-1") }
        if options.gated { arguments.append("-i") }
        arguments.append(log)

        var gateEnds: [Int32] = [-1, -1]
        if options.gated {
            guard pipe(&gateEnds) == 0 else { throw GPSFakeError(description: "pipe: \(GPSFake.errnoText())") }
            for end in gateEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        defer { if gateEnds[0] >= 0 { close(gateEnds[0]) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if options.gated {
            posix_spawn_file_actions_adddup2(&actions, gateEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own, so stop() reaches gpsd too. A clean signal
        // state: the spawning thread may be a Dispatch worker with every
        // signal blocked, and a gpsd that inherits a blocked SIGTERM or
        // SIGHUP cannot be stopped by gpsfake nor reset by a test.
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)

        var child: pid_t = 0
        let status = GPSFake.withCStrings(arguments) { argv in
            posix_spawn(&child, GPSFake.gpsfakePath, &actions, &attributes, argv, environ)
        }
        guard status == 0 else {
            if gateEnds[1] >= 0 { close(gateEnds[1]) }
            throw GPSFakeError(description: "cannot start gpsfake: \(String(cString: strerror(status)))")
        }
        pid = child
        gate = gateEnds[1]
    }

    deinit {
        stop()
    }

    /// Lets the gated log flow to gpsd: all of it, or the next `sentences`
    /// (gpsfake then waits, with the receiver open and silent). Does nothing
    /// for an ungated run.
    func release(sentences: Int? = nil) {
        guard gate >= 0 else { return }
        let newlines = [UInt8](repeating: 10, count: min(sentences ?? prompts, prompts))
        var offset = 0
        while offset < newlines.count {
            let n = newlines.withUnsafeBytes { write(gate, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
    }

    /// The pid of the gpsd this gpsfake started, if it is running.
    func gpsdPID() -> pid_t? {
        guard let directory = opendir("/proc") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let candidate = pid_t(name) else { continue }
            // /proc/PID/stat: "pid (comm) state ppid pgrp ..."
            let stat = GPSFake.contents(of: "/proc/\(candidate)/stat")
            guard let close = stat.lastIndex(of: ")"), stat.contains("(gpsd)") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, pid_t(fields[2]) == pid { return candidate }
        }
        return nil
    }

    /// SIGKILLs gpsd (not gpsfake), as a crash would. Returns false if no gpsd was found.
    @discardableResult
    func killGPSD() -> Bool {
        guard let gpsd = gpsdPID() else { return false }
        return kill(gpsd, SIGKILL) == 0
    }

    /// Waits up to `timeout` seconds for gpsfake to exit on its own.
    func waitForExit(timeout: Double) async -> Bool {
        let deadline = GPSFake.now() + timeout
        while !hasExited() {
            if GPSFake.now() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    private func waitForExitBlocking(timeout: Double) -> Bool {
        let deadline = GPSFake.now() + timeout
        while !hasExited() {
            if GPSFake.now() > deadline { return false }
            GPSFake.sleep(0.01)
        }
        return true
    }

    /// Stops gpsfake and gpsd: SIGTERM to the group, up to 3 s to exit, then
    /// SIGKILL. Safe to call more than once.
    func stop() {
        if gate >= 0 {
            close(gate)
            gate = -1
        }
        if !hasExited() {
            kill(-pid, SIGTERM)
            if !waitForExitBlocking(timeout: 3) {
                kill(-pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                reaped = true
            }
        }
        // gpsd may outlive gpsfake (it is gpsfake's child, not ours).
        kill(-pid, SIGKILL)
        unlink("/tmp/gpsfake-\(pid).sock")
        unlink(outputPath)
        if holdsSlot {
            holdsSlot = false
            GPSFakeSlots.shared.release()
        }
    }

    /// True once gpsfake has exited (and is reaped).
    func hasExited() -> Bool {
        if reaped { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || (result < 0 && errno == ECHILD) { reaped = true }
        return reaped
    }

    /// gpsfake's output so far.
    var output: String { GPSFake.contents(of: outputPath) }

    // MARK: - Helpers

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    static func freePort() throws(GPSFakeError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw GPSFakeError(description: "socket: \(errnoText())") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw GPSFakeError(description: "bind: \(errnoText())") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw GPSFakeError(description: "getsockname: \(errnoText())") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether gpsd on `port` lists a receiver (`?DEVICES;`).
    static func hasReceiver(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        let query = Array("?DEVICES;\n".utf8)
        guard connected, send(fd, query, query.count, Int32(MSG_NOSIGNAL)) == query.count else { return false }
        // gpsd answers VERSION on connect, then DEVICES.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 1 << 16 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            received += buffer[..<n]
            // Whole lines only; gpsd ends them with CR LF.
            guard let lastNewline = received.lastIndex(of: 10) else { continue }
            for line in received[...lastNewline].split(separator: 10) {
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("{\"class\":\"DEVICES\"") { return text.contains("\"path\":\"") }
            }
        }
        return false
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    /// Lines in the file at `path`, or `nil` if it cannot be read.
    static func lineCount(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var count = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { return count + 1 }
            count += buffer[..<n].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
    }

    private static func contents(of path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func temporaryPath(_ stem: String) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(directory)/\(stem)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return body(pointers + [nil])
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
