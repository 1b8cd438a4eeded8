#if canImport(Glibc)
import Glibc
#endif

/// Why a child process could not be started.
struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
}

/// One program the tests start (`locationd`), with stdout and stderr in
/// files, signalled and reaped by its pid with bounded waits. `deinit`
/// SIGKILLs it if it is still running, so a failing test leaves nothing behind.
final class ChildProcess {
    /// The process id.
    let pid: pid_t
    /// Where stdout goes.
    let stdoutPath: String
    /// Where stderr goes.
    let stderrPath: String
    private(set) var exitStatus: Int32?
    private(set) var terminatingSignal: Int32?

    /// Starts `arguments[0]` with `arguments` and `environment` (the whole
    /// environment: nothing is inherited but `PATH`, `HOME` and `TMPDIR`).
    init(_ arguments: [String], environment: [String: String] = [:], stdoutPath: String, stderrPath: String)
        throws(ChildProcessError)
    {
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
        var env = environment
        for name in ["PATH", "HOME", "TMPDIR"] where env[name] == nil {
            if let value = getenv(name) { env[name] = String(cString: value) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal dispositions and an empty mask, whatever the test runner set.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let envStrings = env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let status = Self.withCStrings(arguments) { argv in
            Self.withCStrings(envStrings) { envp in
                posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            throw ChildProcessError(description: "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit {
        if !hasExited() {
            kill(pid, SIGKILL)
            // SIGKILL cannot be caught: the process is gone at once; reap it.
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Sends `signal`.
    func signal(_ signal: Int32) {
        if !hasExited() { kill(pid, signal) }
    }

    /// True once the process has exited (and is reaped).
    func hasExited() -> Bool {
        if exitStatus != nil || terminatingSignal != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 && errno == ECHILD }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: Glibc's macros are not imported.
        if status & 0x7f == 0 {
            exitStatus = (status >> 8) & 0xff
        } else {
            terminatingSignal = status & 0x7f
        }
        return true
    }

    /// Waits up to `timeout` seconds (without blocking a thread); returns whether it exited.
    func waitForExit(timeout: Double) async -> Bool {
        let deadline = monotonicNow() + timeout
        while !hasExited() {
            if monotonicNow() > deadline { return false }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return true
    }

    /// stderr so far.
    var stderr: String { String(decoding: (try? readFile(stderrPath)) ?? [], as: UTF8.self) }
    /// stdout so far.
    var stdout: String { String(decoding: (try? readFile(stdoutPath)) ?? [], as: UTF8.self) }

    static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return body(pointers + [nil])
    }
}

/// Monotonic seconds.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Sleeps `seconds` without blocking a thread.
func sleepSeconds(_ seconds: Double) async {
    try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass (a
/// safety bound, not a timing assertion). Returns whether it held.
@discardableResult
func waitUntil(timeout: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if try condition() { return true }
        if monotonicNow() > deadline { return false }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
}

/// The bytes of a file.
func readFile(_ path: String) throws(ChildProcessError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ChildProcessError(description: "open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { throw ChildProcessError(description: "read \(path): \(String(cString: strerror(errno)))") }
        if n == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<n])
    }
}

/// Writes `bytes` to `path`, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) throws(ChildProcessError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ChildProcessError(description: "create \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { throw ChildProcessError(description: "write \(path): \(String(cString: strerror(errno)))") }
        offset += n
    }
}

/// Whether a file exists at `path`.
func fileExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}
