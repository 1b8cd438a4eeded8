#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One `/usr/bin/gpsfake` process, and the private gpsd it spawns, replaying
/// an NMEA log on a free TCP port of 127.0.0.1.
///
/// gpsfake runs gpsd with `-n` (read the device before any client watches),
/// `-1` (play the log once, then `-W` seconds later exit and stop gpsd) or
/// endlessly, and `-c` seconds between sentences. A *gated* run also passes
/// `-i`, which makes gpsfake wait for a line on stdin before each sentence:
/// the harness holds those lines back until `release()`, so clients can
/// connect and start watching before the first sentence reaches gpsd, and a
/// test sees the whole log rather than whatever was left when it attached.
///
/// gpsfake and gpsd run in a process group of their own; `stop()` (and
/// deinit) SIGKILLs the group and returns at once: a test's gpsd needs no
/// graceful exit, and nothing here waits on a thread of the cooperative pool.
/// Its files (output, gpsd's control socket) are removed with the value.
public final class GPSFake: Sendable {
    /// Where Debian's gpsd-clients installs gpsfake.
    public static let gpsfakePath = "/usr/bin/gpsfake"
    /// Where Debian's gpsd installs the daemon gpsfake runs.
    public static let gpsdPath = "/usr/sbin/gpsd"
    /// gpsfake's Python half (python3-gps).
    public static let pythonModule = "/usr/lib/python3/dist-packages/gps/fake.py"

    /// Why gpsfake cannot run here, or `nil` when it can.
    public static let unavailableReason: String? = {
        if access(gpsfakePath, X_OK) != 0 { return "\(gpsfakePath) is missing (install gpsd-clients)" }
        if access(gpsdPath, X_OK) != 0 { return "\(gpsdPath) is missing (install gpsd)" }
        if access(pythonModule, R_OK) != 0 { return "\(pythonModule) is missing (install python3-gps)" }
        return nil
    }()

    /// Whether gpsfake, gpsd and python3-gps are installed.
    /// Where CI sets `LOCATIOND_REQUIRE_TOOLS`, always `true`: the tests run
    /// and fail for a missing tool instead of being skipped (`ExternalTool`).
    public static var isAvailable: Bool { ExternalTool.isAvailable(when: unavailableReason == nil) }

    /// How to run gpsfake.
    public struct Options: Sendable {
        /// Seconds between sentences (`-c`).
        public var cycle: Double
        /// Play the log once (`-1`) rather than in a loop.
        public var once: Bool
        /// Hold every sentence until `release()` (`-i`). Needs `once`.
        public var gated: Bool
        /// Seconds gpsfake waits after the log before exiting (`-W`).
        public var linger: Int
        /// The port; `nil` picks a free one.
        public var port: Int?

        /// Options; by default a gated single play at 5 ms a sentence.
        public init(cycle: Double = 0.005, once: Bool = true, gated: Bool = true, linger: Int = 1, port: Int? = nil) {
            self.cycle = cycle
            self.once = once
            self.gated = gated
            self.linger = linger
            self.port = port
        }
    }

    /// The TCP port gpsd listens on (127.0.0.1).
    public let port: Int
    /// Which try of its `start` this run is: each one before it was a gpsfake stopped in one of
    /// its races (see `start`), whose gpsd a client may already have connected to, on the
    /// same port when one is asked for.
    public let startAttempt: Int
    /// gpsfake and its output.
    public let process: ChildProcess
    /// gpsfake's TMPDIR, where it puts gpsd's control socket
    /// (`gpsfake-PID.sock`), and its output. A directory of its own: gpsfake
    /// takes an existing socket file of that name (a stale one, from a run that
    /// was killed) for gpsd's, adds its receiver to nobody, and gpsd never
    /// gets one.
    private let scratch: ScratchDirectory
    /// gpsfake's pid, also its process group id.
    public var pid: pid_t { process.pid }
    /// gpsfake's stdout and stderr, for failure messages.
    public var outputPath: String { process.stdoutPath }
    private let prompts: Int
    /// Receivers gpsfake hands gpsd: one per log.
    private let receivers: Int
    /// The write end of gpsfake's stdin (-1 once closed), and whether this run
    /// still holds its `GPSFakeSlots` slot.
    private let state: Mutex<(gate: Int32, holdsSlot: Bool)>

    /// Starts gpsfake on `log` (once a slot is free) and waits, polling without
    /// holding a thread, until gpsd accepts connections and lists gpsfake's
    /// receiver. `startTimeout` bounds that wait on a loaded machine.
    /// `replacing` stops a previous run and hands its slot on, so a test that
    /// restarts gpsd does not queue behind other tests for a new one.
    ///
    /// A start that fails in one of gpsfake's own races is tried again, up to
    /// three times within `startTimeout`: a port picked as free and taken by
    /// someone else before gpsd binds it (gpsfake exits at once), and a gpsd
    /// that never gets the receiver. gpsfake hands gpsd the receiver over
    /// gpsd's control socket as soon as its file exists; on a loaded machine
    /// gpsd can be between bind(2) and listen(2) then, the connect is refused,
    /// and gpsfake carries on silently with a gpsd that has no receiver.
    public static func start(
        log: String, options: Options = Options(), startTimeout: Double = 120, replacing previous: GPSFake? = nil
    ) async throws(GPSFakeError) -> GPSFake {
        try await start(logs: [log], options: options, startTimeout: startTimeout, replacing: previous)
    }

    /// `start(log:…)` with several logs: gpsfake gives each its own pty, one receiver each on the
    /// one gpsd, and feeds them a sentence at a time in turn (each sentence waits `cycle`).
    public static func start(
        logs: [String], options: Options = Options(), startTimeout: Double = 120, replacing previous: GPSFake? = nil
    ) async throws(GPSFakeError) -> GPSFake {
        if previous?.stop(handingOverSlot: true) != true { await GPSFakeSlots.shared.acquire() }
        let deadline = monotonicNow() + startTimeout
        var attempt = 0
        while true {
            attempt += 1
            if let port = options.port {
                // A gpsd killed a moment ago may still hold the port it is asked to reuse.
                guard await waitUntil(timeout: max(0, deadline - monotonicNow()), { LoopbackTCP.isFree(port: port) })
                else {
                    GPSFakeSlots.shared.release()
                    throw GPSFakeError(description: "port \(port) is still taken after \(startTimeout) s")
                }
            }
            let fake: GPSFake
            do {
                fake = try GPSFake(logs: logs, options: options, attempt: attempt)
            } catch {
                GPSFakeSlots.shared.release()
                throw error
            }
            let outcome = await fake.waitUntilServing(deadline: deadline)
            guard case .failed(let problem, let retry) = outcome else { return fake }
            let output = fake.output
            // Keep the slot for the next attempt; give it up only when throwing.
            let heldSlot = fake.stop(handingOverSlot: true)
            if retry && attempt < 3 && monotonicNow() < deadline {
                if !heldSlot { await GPSFakeSlots.shared.acquire() }
                continue
            }
            if heldSlot { GPSFakeSlots.shared.release() }
            throw GPSFakeError(description: "\(problem) (attempt \(attempt)): \(output)")
        }
    }

    /// How long gpsd may listen without the receiver before the start counts
    /// as gpsfake's lost hand-over: gpsd opens a pty as it adds it, so on an
    /// idle machine it lists it within milliseconds.
    static let receiverGrace = 15.0

    /// What waiting for a fresh gpsfake ended with.
    private enum Serving {
        case serving
        /// What went wrong, and whether starting afresh may help.
        case failed(String, retry: Bool)
    }

    /// Waits until gpsd serves gpsfake's receiver.
    private func waitUntilServing(deadline: Double) async -> Serving {
        while await !LoopbackTCP.accepts(port: port) {
            if process.hasExited {
                return .failed("gpsfake exited before gpsd listened on port \(port)", retry: true)
            }
            if monotonicNow() > deadline { return .failed("gpsd from gpsfake did not listen on port \(port)", retry: false) }
            await pause(0.05)
        }
        // gpsd listens before gpsfake has handed it the receiver, and it
        // flushes the receiver when it opens it: release before that, and the
        // first sentences are gone. With -n gpsd opens a receiver as it adds
        // it, so wait until gpsd lists them all: gpsfake adds its logs' ptys
        // one after another and feeds the gate's lines in turn to those it has,
        // so a release before the last is added gives the others all of them.
        let listening = monotonicNow()
        while await GPSFake.receiversListed(port: port) < receivers {
            if process.hasExited {
                return .failed("gpsfake exited before gpsd on port \(port) got its receiver", retry: false)
            }
            let now = monotonicNow()
            if now > deadline { return .failed("gpsd on port \(port) never got gpsfake's receiver", retry: false) }
            if now - listening > GPSFake.receiverGrace {
                return .failed(
                    "gpsd on port \(port) had no receiver \(Int(GPSFake.receiverGrace)) s after it listened", retry: true)
            }
            await pause(0.05)
        }
        return .serving
    }

    /// Starts gpsfake on `logs`; it may not be listening yet.
    private init(logs: [String], options: Options, attempt: Int) throws(GPSFakeError) {
        if let reason = GPSFake.unavailableReason { throw GPSFakeError(description: reason) }
        guard !options.gated || options.once else {
            throw GPSFakeError(description: "a gated gpsfake must play its log once")
        }
        var lines = 0
        for log in logs {
            guard let n = FileIO.lineCount(log) else { throw GPSFakeError(description: "cannot read \(log)") }
            lines += n
        }
        receivers = logs.count
        startAttempt = attempt
        // Each sentence consumes one line from the gate; more is harmless.
        prompts = lines + 16
        // The gate is written in one go: it must fit in the pipe.
        guard !options.gated || prompts < 60_000 else {
            throw GPSFakeError(description: "\(logs.joined(separator: ", ")) have too many lines for a gated run")
        }
        let port: Int
        do {
            port = try options.port ?? LoopbackTCP.freePort()
        } catch {
            throw GPSFakeError(description: "no free port: \(error)")
        }
        self.port = port

        var arguments = [
            GPSFake.gpsfakePath, "-q", "-n", "-P", String(port), "-c", String(options.cycle),
            "-W", String(options.linger),
        ]
        if options.once { arguments.append("-1") }
        if options.gated { arguments.append("-i") }
        arguments += logs

        var gateEnds: [Int32] = [-1, -1]
        if options.gated {
            guard pipe(&gateEnds) == 0 else { throw GPSFakeError(description: "pipe: \(String(cString: strerror(errno)))") }
            for end in gateEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        defer { if gateEnds[0] >= 0 { close(gateEnds[0]) } }
        do {
            scratch = try ScratchDirectory("gpsfake")
            process = try ChildProcess(
                arguments, environment: .inherited(["TMPDIR": scratch.path]),
                stdin: options.gated ? .descriptor(gateEnds[0]) : .null, stdoutPath: scratch.file("gpsfake.out"))
        } catch {
            if gateEnds[1] >= 0 { close(gateEnds[1]) }
            throw GPSFakeError(description: "cannot start gpsfake: \(error)")
        }
        state = Mutex((gate: gateEnds[1], holdsSlot: true))
    }

    deinit {
        stop()
    }

    /// Lets the gated log flow to gpsd: all of it, or the next `sentences`
    /// (gpsfake then waits, with the receiver open and silent). Does nothing
    /// for an ungated run.
    public func release(sentences: Int? = nil) {
        let newlines = [UInt8](repeating: 10, count: min(sentences ?? prompts, prompts))
        state.withLock { state in
            // Fits in the pipe (see init): the write does not block.
            if state.gate >= 0 { try? FileIO.writeAll(state.gate, newlines, what: "gpsfake's stdin") }
        }
    }

    /// What gpsfake sends gpsd of an NMEA log at `path`: its lines as they are in the file (line
    /// ends included), its `#` comments left out.
    public static func sentences(of path: String) throws(SupportError) -> [UInt8] {
        var kept: [UInt8] = []
        for line in try FileIO.read(path).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        where line.first != UInt8(ascii: "#") {
            kept += line + [0x0A]
        }
        return kept
    }

    /// gpsd's control socket, as gpsfake names it (`gpsfake-PID.sock` in its TMPDIR).
    public var controlSocketPath: String { scratch.file("gpsfake-\(pid).sock") }

    /// Sends `command` to gpsd's control socket as gpsdctl does — `+PATH` adds a receiver (gpsd
    /// opens it and tells its watchers), `-PATH` removes one — and returns gpsd's answer
    /// (`OK`, `ERROR`), or `nil` when the socket cannot be reached. Off the cooperative pool.
    public func control(_ command: String) async -> String? {
        let path = controlSocketPath
        return await offPool {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in bytes.enumerated() { raw[i] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else { return nil }
            // As gpsfake's own add_device and remove_device send it.
            let line = Array("\(command)\r\n".utf8) + [0]
            guard send(fd, line, line.count, Int32(MSG_NOSIGNAL)) == line.count else { return nil }
            var answer = [UInt8](repeating: 0, count: 64)
            let n = recv(fd, &answer, answer.count, 0)
            guard n > 0 else { return nil }
            let text = answer[..<n].filter { $0 > 0x20 }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The pid of the gpsd this gpsfake started, if it is running.
    public func gpsdPID() -> pid_t? {
        ProcFS.processes(named: "gpsd", inGroup: pid).first
    }

    /// SIGKILLs gpsd (not gpsfake), as a crash would. Returns false if no gpsd was found.
    @discardableResult
    public func killGPSD() -> Bool {
        guard let gpsd = gpsdPID() else { return false }
        return Glibc.kill(gpsd, SIGKILL) == 0
    }

    /// Waits up to `timeout` seconds for gpsfake to exit on its own.
    public func waitForExit(timeout: Double) async -> Bool {
        await process.wait(timeout: timeout)
    }

    /// SIGKILLs gpsfake and gpsd, as a crash or a restart of gpsd would end
    /// them, but keeps the slot for a `start(replacing:)`. Returns at once.
    public func kill() {
        process.kill()
    }

    /// Stops gpsfake and gpsd (SIGKILL to the group) and frees the slot.
    /// Returns at once; safe to call more than once.
    public func stop() {
        stop(handingOverSlot: false)
    }

    /// Stops the run; with `handingOverSlot` its slot is kept for the caller.
    /// Returns whether the run still held its slot.
    @discardableResult
    private func stop(handingOverSlot: Bool) -> Bool {
        let (gate, heldSlot) = state.withLock { state in
            defer { state = (gate: -1, holdsSlot: false) }
            return state
        }
        if gate >= 0 { close(gate) }
        process.kill()
        if heldSlot && !handingOverSlot { GPSFakeSlots.shared.release() }
        return heldSlot
    }

    /// True once gpsfake has exited (and been reaped).
    public func hasExited() -> Bool { process.hasExited }

    /// gpsfake's output so far.
    public var output: String { process.stdout }

    // MARK: - Helpers

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    public static func freePort() throws(GPSFakeError) -> Int {
        do {
            return try LoopbackTCP.freePort()
        } catch {
            throw GPSFakeError(description: "no free port: \(error)")
        }
    }

    /// How many receivers gpsd on `port` lists (`?DEVICES;`). Polls without
    /// holding a thread; 0 if it does not answer within 5 s.
    public static func receiversListed(port: Int) async -> Int {
        guard let fd = await LoopbackTCP.connect(port: port, timeout: 5) else { return 0 }
        defer { close(fd) }
        let query = Array("?DEVICES;\n".utf8)
        guard send(fd, query, query.count, Int32(MSG_NOSIGNAL)) == query.count else { return 0 }
        // gpsd answers VERSION on connect, then DEVICES; whole lines only (CR LF).
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let listed: Int? = await eventualValue(timeout: 5) { () -> Int? in
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? nil : 0 }
            if n == 0 || received.count > 1 << 16 { return 0 }
            received += buffer[..<n]
            guard let lastNewline = received.lastIndex(of: 10) else { return nil }
            for line in received[...lastNewline].split(separator: 10) {
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("{\"class\":\"DEVICES\"") {
                    // One `"path":"` per receiver listed.
                    let key = Array("\"path\":\"".utf8)
                    let bytes = Array(line)
                    return bytes.indices.filter { bytes[$0...].starts(with: key) }.count
                }
            }
            return nil
        }
        return listed ?? 0
    }
}
