#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` for one test (package `dbus-daemon`): its own
/// configuration, listening on a Unix socket in a scratch directory that every
/// uid may reach (so a test's second user can connect), letting every peer
/// call, own and receive unless the test gives a policy of its own; stopped by its pid.
public final class DBusDaemon: Sendable {
    /// The bus's directory: configuration, socket, the daemon's output.
    public let directory: ScratchDirectory
    /// `unix:path=…`, for `DBUS_SYSTEM_BUS_ADDRESS` and `[geoclue] bus`.
    public var address: String { "unix:path=" + socketPath }
    /// The listening socket.
    public var socketPath: String { directory.file("bus") }
    private let process: ChildProcess

    /// The policy that lets every peer call, own and receive.
    public static let openPolicy = """
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_type="method_return"/>
            <allow send_type="signal"/>
            <allow send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="signal"/>
            <allow receive_type="error"/>
          </policy>
        """

    /// Writes the configuration, with `policy` (`<policy>` elements) in it, and starts the daemon;
    /// returns once the socket accepts connections.
    public init(_ label: String, policy: String = DBusDaemon.openPolicy) async throws {
        // Every stored property set before the first suspension, by a synchronous
        // step: Swift 6.3.1's optimiser crashes (coroutine splitting) on this
        // initialiser when they are set between throwing calls (release builds).
        let (directory, process) = try Self.launch(label, policy: policy)
        self.directory = directory
        self.process = process
        let socket = directory.file("bus")
        let up = await waitUntil(timeout: 30) { access(socket, F_OK) == 0 }
        guard up else {
            process.kill()
            throw SupportError.system("dbus-daemon did not listen on \(socket): \(process.stderr)")
        }
        chmod(socket, 0o777)
    }

    /// The bus's directory and configuration, and the daemon started on them.
    private static func launch(_ label: String, policy: String) throws -> (ScratchDirectory, ChildProcess) {
        let directory = try ScratchDirectory("dbus-\(label)")
        chmod(directory.path, 0o755)
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <listen>unix:path=\(directory.file("bus"))</listen>
              <auth>EXTERNAL</auth>
            \(policy)
            </busconfig>
            """
        let path = try directory.write("bus.conf", config)
        guard let program = ExternalTool.path("dbus-daemon") else {
            throw SupportError.system("dbus-daemon is not installed (package dbus-daemon)")
        }
        let process = try ChildProcess(
            [program, "--config-file=\(path)", "--nofork", "--nopidfile"], environment: .only([:]),
            stdoutPath: directory.file("dbus.out"), stderrPath: directory.file("dbus.err"))
        return (directory, process)
    }

    /// The daemon's pid (for its CPU time in Benchmarks/GeoClueBenchmark).
    public var pid: pid_t { process.pid }

    /// The daemon's own messages.
    public var stderr: String { process.stderr }

    /// Stops the daemon.
    public func stop() {
        process.kill()
    }

    deinit {
        process.kill()
    }
}
