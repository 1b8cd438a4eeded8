#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A real `mosquitto` broker for one test: on a free loopback port, with a
/// configuration and a persistence directory of its own (so a persistent
/// subscriber's queued messages survive a restart), stopped by its pid.
/// `stop()` and `start()` again keep the port, as a broker restart does.
public final class Mosquitto: Sendable {
    /// What the listener asks for.
    public struct Options: Sendable {
        /// `mosquitto_passwd` users: name → password; empty: anonymous allowed.
        public var users: [String: String] = [:]
        /// CA, certificate and key of a TLS listener; `nil`: plain MQTT.
        public var tls: (ca: String, cert: String, key: String)?

        public init(users: [String: String] = [:], tls: (ca: String, cert: String, key: String)? = nil) {
            self.users = users
            self.tls = tls
        }
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Its directory: configuration, log, persistence.
    public let directory: ScratchDirectory
    /// The configuration file.
    public var configPath: String { directory.file("mosquitto.conf") }
    /// The broker's own log.
    public var logPath: String { directory.file("mosquitto.log") }
    private let process = Mutex<ChildProcess?>(nil)
    private let starts = Mutex(0)

    /// Writes the configuration and starts the broker; returns once it accepts connections.
    public init(_ label: String, options: Options = Options()) async throws {
        directory = try ScratchDirectory("mqtt-\(label)")
        port = try LoopbackTCP.freePort()
        var lines = [
            // Run as root (tests in a container), mosquitto would switch to user mosquitto and lose the directory.
            "user root",
            "listener \(port) 127.0.0.1",
            "persistence true",
            "persistence_location \(directory.path)/",
            "log_dest file \(directory.file("mosquitto.log"))",
            "log_type all",
        ]
        if options.users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.file("passwords")
            for (index, (user, password)) in options.users.sorted(by: { $0.key < $1.key }).enumerated() {
                var arguments = [ExternalTool.path("mosquitto_passwd") ?? "mosquitto_passwd", "-b"]
                if index == 0 { arguments.append("-c") }
                let outcome = try await ChildProcess.run(arguments + [passwords, user, password])
                guard outcome.status == 0 else { throw SupportError("mosquitto_passwd failed: \(outcome.stderr)") }
            }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if let tls = options.tls {
            lines += ["cafile \(tls.ca)", "certfile \(tls.cert)", "keyfile \(tls.key)"]
        }
        try FileIO.write(configPath, lines.joined(separator: "\n") + "\n")
        try await start()
    }

    deinit {
        process.withLock { $0?.kill() }
    }

    /// Starts the broker (again) on the same port; returns once it accepts connections.
    public func start() async throws {
        let n = starts.withLock { count -> Int in
            count += 1
            return count
        }
        let program = ExternalTool.path("mosquitto") ?? "mosquitto"
        let child = try ChildProcess(
            [program, "-c", configPath], stdoutPath: directory.file("stdout-\(n)"))
        process.withLock { $0 = child }
        let port = port
        let up = await waitUntilAsync(timeout: 30) {
            guard let fd = await LoopbackTCP.connect(port: port, timeout: 1) else { return false }
            close(fd)
            return true
        }
        guard up, !child.hasExited else {
            throw SupportError("mosquitto did not start on port \(port): \(child.stdout) \(FileIO.text(logPath) ?? "")")
        }
    }

    /// Stops the broker by its pid (SIGTERM: it saves its persistence file) and waits for it.
    public func stop() async {
        guard let child = process.withLock({ $0 }) else { return }
        child.signal(SIGTERM)
        if !(await child.wait(timeout: 30)) { child.kill() }
        process.withLock { $0 = nil }
    }
}

/// `mosquitto_sub` on one topic with a persistent session (QoS 1), writing
/// every payload as a line to a file, so messages published while it or the
/// broker was away reach it once both are back.
public final class MQTTSubscriber: Sendable {
    private let child: ChildProcess
    /// The file the payloads go to.
    public let outputPath: String

    /// Subscribes to `topic` on `broker`; returns once a probe published
    /// there has arrived (the subscription is in place). `extra` adds
    /// mosquitto_sub options (`--cafile`, `-u`, `-P`).
    public init(_ broker: Mosquitto, topic: String, extra: [String] = [], publishExtra: [String]? = nil) async throws {
        outputPath = broker.directory.file("sub-\(UInt32.random(in: 0...UInt32.max)).out")
        let id = "test-sub-\(UInt32.random(in: 0...UInt32.max))"
        let program = ExternalTool.path("mosquitto_sub") ?? "mosquitto_sub"
        child = try ChildProcess(
            [program, "-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-q", "1", "-c", "-i", id] + extra,
            stdoutPath: outputPath, stderrPath: outputPath + ".err")
        let publisher = ExternalTool.path("mosquitto_pub") ?? "mosquitto_pub"
        let probe = #"{"_type":"probe"}"#
        var arrived = false
        for _ in 0..<60 where !arrived {
            _ = try await ChildProcess.run(
                [publisher, "-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-q", "1", "-m", probe] + (publishExtra ?? extra))
            arrived = await waitUntil(timeout: 0.5) { (FileIO.text(outputPath) ?? "").contains(probe) }
        }
        guard arrived else {
            throw SupportError("mosquitto_sub did not subscribe to \(topic): \(FileIO.text(outputPath + ".err") ?? "")")
        }
    }

    deinit { child.kill() }

    /// Every payload received so far that is not a probe, one per line.
    public var payloads: [String] {
        (FileIO.text(outputPath) ?? "").split(separator: "\n").map(String.init).filter { !$0.contains(#""_type":"probe""#) }
    }

    /// mosquitto_sub's own messages.
    public var errors: String { FileIO.text(outputPath + ".err") ?? "" }
}
