#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A program the tests start: `posix_spawn`ed with an empty signal mask and
/// every signal at its default (the test runner's threads block or ignore
/// some, and a child would inherit that), no descriptor of the test process
/// but its stdin/stdout/stderr, and by default a process group of its own,
/// so the program and whatever it starts (gpsfake's gpsd) are stopped
/// together. Output goes to files: no pipe can fill up and stall it.
///
/// A dedicated thread reaps it the moment it ends and notes the time, so no
/// wait ever holds a thread of the cooperative pool, an end is measured
/// without the test's own scheduling delays, and no zombie lingers (Swift
/// Testing's exit-test monitor spins on any unreaped child). Dropping the
/// value SIGKILLs what is still running.
public final class ChildProcess: Sendable {
    /// Where standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A file, read from its start.
        case file(String)
        /// A descriptor of this process (the child gets a copy).
        case descriptor(Int32)
    }

    /// The process id (also its process group id when it has a group of its own).
    public let pid: pid_t
    /// The command line, for messages.
    public let command: String
    /// Where standard output goes.
    public let stdoutPath: String
    /// Where standard error goes (may be `stdoutPath`).
    public let stderrPath: String
    /// Monotonic seconds at which it was started.
    public let startTime: Double
    private let ownGroup: Bool
    private let ending: Ending

    /// What the reaper learns, and the one lock under which the pid may be
    /// signalled: once reaped, the number may belong to someone else.
    private final class Ending: Sendable {
        let state = Mutex<ChildExit?>(nil)
    }

    /// Starts `arguments[0]` (looked up in `PATH` if it has no slash) with
    /// `arguments` and `environment`. Standard error goes to `stdoutPath` too
    /// unless `stderrPath` is given.
    public init(
        _ arguments: [String], environment: ChildEnvironment = .inherited(), stdin: Input = .null,
        stdoutPath: String, stderrPath: String? = nil, ownGroup: Bool = true
    ) throws(ChildProcessError) {
        guard let program = arguments.first else { throw ChildProcessError("no program to start") }
        command = arguments.joined(separator: " ")
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath ?? stdoutPath
        self.ownGroup = ownGroup

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch stdin {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
        }
        let outputFlags = O_WRONLY | O_CREAT | O_TRUNC | O_APPEND
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, outputFlags, 0o644)
        if let stderrPath, stderrPath != stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, outputFlags, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Descriptors the test process opened without O_CLOEXEC (or opened on
        // another thread in the instant before setting it) must not leak: a
        // long-lived gpsd holding one end of a test's socket keeps it open.
        _ = Self.addCloseFrom.map { $0(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var child: pid_t = 0
        let spawned = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environment.entries) { envp in
                posix_spawnp(&child, program, &actions, &attributes, argv, envp)
            }
        }
        guard spawned == 0 else {
            throw ChildProcessError("cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        pid = child
        startTime = monotonicNow()
        ending = Ending()
        ChildRegistry.add(child, ownGroup: ownGroup)
        DedicatedThread.run { [ending, child] in Self.reap(child, into: ending) }
    }

    deinit {
        kill()
    }

    /// Blocks its own thread until the child ends, then reaps it under the lock.
    private static func reap(_ pid: pid_t, into ending: Ending) {
        // WNOWAIT first: the pid stays a zombie (not reusable) until it is
        // reaped below, under the lock that `signal` takes.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let ended = monotonicNow()
        ending.state.withLock { exit in
            var status: Int32 = 0
            var usage = rusage()
            var result: pid_t
            repeat { result = wait4(pid, &status, 0, &usage) } while result < 0 && errno == EINTR
            let cpu = Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime)
            exit = result == pid ? ChildExit(waitStatus: status, time: ended, cpuSeconds: cpu) : ChildExit(unknownAt: ended)
        }
        ChildRegistry.remove(pid)
    }

    // MARK: - State

    /// How it ended, once it has.
    public var exit: ChildExit? { ending.state.withLock { $0 } }
    /// True once it has ended (and been reaped).
    public var hasExited: Bool { exit != nil }
    /// Its exit code, if it exited.
    public var exitStatus: Int32? { exit?.code }
    /// The signal that ended it, if one did.
    public var terminatingSignal: Int32? { exit?.signal }
    /// The shell's number (exit code, or 128 + signal), once it has ended.
    public var status: Int32? { exit?.status }

    // MARK: - Waiting

    /// Waits up to `timeout` seconds (a correctness bound, polled without
    /// holding a thread); returns whether it ended.
    public func wait(timeout: Double) async -> Bool {
        await waitUntil(timeout: timeout, every: 0.005) { hasExited }
    }

    /// Waits for it to end and returns the shell's number; if it has not
    /// ended within `timeout` seconds, kills it and throws.
    public func finish(within timeout: Double = 120) async throws(ChildProcessError) -> Int32 {
        guard await wait(timeout: timeout), let status else {
            kill()
            throw ChildProcessError("\(command) did not finish within \(timeout) s")
        }
        return status
    }

    // MARK: - Signals

    /// Sends `signal` to the process (not its group) while it runs.
    public func signal(_ signal: Int32) {
        ending.state.withLock { exit in
            if exit == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Sends `signal` to its whole process group (just the process if it has
    /// none) while the process itself runs: once it is reaped and its group
    /// empty, the number may be someone else's group.
    public func signalGroup(_ signal: Int32) {
        ending.state.withLock { exit in
            if exit == nil { _ = Glibc.kill(ownGroup ? -pid : pid, signal) }
        }
    }

    /// SIGKILLs it and its group. Returns at once; the reaper thread collects it.
    public func kill() {
        signalGroup(SIGKILL)
    }

    // MARK: - Output

    /// Standard output so far.
    public var stdout: String { FileIO.text(stdoutPath) ?? "" }
    /// Standard error so far.
    public var stderr: String { FileIO.text(stderrPath) ?? "" }
    /// Standard output's complete lines so far (a line still being written is not one).
    public var stdoutLines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }

    // MARK: - Helpers

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+); Swift's
    /// Glibc module does not declare it, so it is looked up.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    private static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return body(pointers + [nil])
    }
}
