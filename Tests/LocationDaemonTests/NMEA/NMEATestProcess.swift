import Foundation

/// Runs a program to completion with a deadline, its output in a file (so a
/// big output cannot fill a pipe and stall it).
///
/// Spawned directly with `posix_spawn`: a clean signal mask and default
/// signal dispositions (the test runner blocks or ignores some, and a gpsd
/// started by gpsfake that inherits a blocked SIGTERM never exits), and its
/// own process group, so that on timeout the program and everything it
/// started (gpsfake's gpsd) are stopped together.
struct NMEATestProcess {
    /// Exit status, stdout, stderr.
    struct Outcome {
        var status: Int32
        var output: [UInt8]
        var errors: String
    }

    /// Why a run did not complete.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path` with `arguments`, stdin from the file `input` (or
    /// /dev/null), killing its process group after `timeout` seconds.
    static func run(_ path: String, _ arguments: [String], input: String? = nil, timeout: Double) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("locationd-nmea-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
        guard mkdir(directory, 0o700) == 0 else { throw Failure(description: "cannot create \(directory)") }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/stdout", err = directory + "/stderr"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }

        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var finished = false
        while Date() < deadline {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { finished = true; break }
            if waited < 0 && errno != EINTR { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        if !finished {
            kill(-pid, SIGTERM)
            usleep(300_000)
            kill(-pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        // Whatever it left behind in its group (it should be nothing) goes too.
        kill(-pid, SIGKILL)
        let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? Data(contentsOf: URL(fileURLWithPath: out))).map { [UInt8]($0) } ?? []
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return Outcome(status: exit, output: output, errors: errors)
    }

    /// A TCP port nobody listens on right now (the kernel's pick).
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return 29_470 }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : 29_470
    }
}
