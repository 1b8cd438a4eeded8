#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A program run by a test, its output in files (no pipe to fill up), every
/// wait an async sleep loop with a deadline: the server under test answers
/// from tasks on the same small cooperative pool, which a blocking wait
/// would starve.
///
/// Spawned with `posix_spawn` and an empty signal mask with SIGINT, SIGTERM,
/// SIGHUP and SIGPIPE at their defaults, as a shell starts a program: the
/// test's own threads (dispatch workers) block signals, and a child would
/// otherwise inherit that.
final class Child {
    let pid: pid_t
    let command: String
    let stdoutPath: String
    let stderrPath: String
    private var status: Int32?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments`; output goes to files in `directory`.
    init(_ executable: String, _ arguments: [String], in directory: ScratchDirectory, stdin: String? = nil) throws {
        let tag = UUID().uuidString.prefix(8)
        stdoutPath = directory.file("out-\(tag).txt")
        stderrPath = directory.file("err-\(tag).txt")
        command = ([executable] + arguments).joined(separator: " ")
        var input = "/dev/null"
        if let stdin { input = try directory.write("in-\(tag).txt", stdin) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard code == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(code)))") }
        pid = child
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// What it wrote to standard output so far.
    var output: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// What it wrote to standard error so far.
    var errors: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits for it to end; its exit status (128 + n for a signal).
    func wait(within seconds: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                // The <sys/wait.h> macros, by hand: low 7 bits the signal, else the exit code above them.
                let signal = raw & 0x7F
                let decoded = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
                status = decoded
                return decoded
            }
            if result < 0 && errno != EINTR { throw Failure(description: "waitpid \(pid): \(String(cString: strerror(errno)))") }
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                throw Failure(description: "\(command) did not finish within \(seconds) s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until standard output has `count` lines (at most `seconds`); whether it did.
    func waitForLines(_ count: Int, within seconds: Double = 20) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lines.count >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return lines.count >= count
    }

    /// Standard output's complete lines.
    var lines: [String] {
        var parts = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()  // after the last newline: empty, or a line being written
        return parts
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() { kill(pid, SIGINT) }
}

/// The built `locationctl`, found relative to the package root.
enum Locationctl {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Ctl, LocationDaemonTests, Tests, file
        return url.path
    }()

    /// `.build/debug/locationctl` (what `swift build --build-tests` and `swift test` build).
    static var path: String { packageRoot + "/.build/debug/locationctl" }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs it to the end.
    static func run(_ arguments: [String], in directory: ScratchDirectory, stdin: String? = nil) async throws
        -> (status: Int32, output: String, errors: String)
    {
        try #require(isBuilt, "\(path) is missing: build it with swift build --build-tests (or --product locationctl)")
        let child = try Child(path, arguments, in: directory, stdin: stdin)
        let status = try await child.wait()
        return (status, child.output, child.errors)
    }
}
