#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationValues
import LocationSystem
import LocationProtocol

/// `locationd run`: start-up, the service group, SIGHUP and shutdown.
///
/// Start-up order, each step refusing to start (exit 1, 78 for the
/// configuration; every problem logged) when it fails: signals are caught
/// (so a SIGTERM during start-up is not lost), the configuration is read
/// (with what only this host can say of it, each face's `hostProblems`),
/// the faces made (`FaceList`), the state loaded (a corrupt file set aside)
/// and every log opened, the faces' services that start before the control
/// socket made, the control socket bound (or the one systemd passed taken),
/// the other faces' services made (binding their sockets, taking their bus
/// names), the source started; then READY=1. The services run as a group
/// in that order — core, the early faces, control, the other faces, source,
/// systemd — and stop in reverse: STOPPING=1, stop reading, the faces close
/// their sockets, close and unlink the socket, then write and sync the logs
/// and save the state. SIGHUP reopens the logs and reloads the configuration,
/// keeping the running one when the file has errors.
public enum Daemon {
    /// Makes the fix source for a `[source]` section.
    public typealias SourceFactory = @Sendable (SourceConfig) -> any FixSource
    /// Makes the control-plane service for the core — binding its socket, or
    /// serving the one systemd passed — and throws when it cannot.
    public typealias ControlFactory = @Sendable (DaemonConfig, DaemonCore, PassedSocket?) throws -> any Service

    /// Runs the daemon with the configuration at `configPath` until SIGTERM
    /// or SIGINT. Returns `.ok` after a clean stop, `.configuration` (78) when
    /// the configuration has errors, `.refused` when it could not start
    /// otherwise or a service failed.
    public static func run(
        configPath: String, sources: SourceFactory, control: ControlFactory? = nil,
        environment: [String: String] = SystemdNotifier.processEnvironment(),
        activation: [String: String] = SocketActivation.processEnvironment()
    ) async -> ExitCode {
        // Everything asynchronous from here on runs on the core thread, none of it on the cooperative pool.
        do {
            try CoreExecutor.shared.start()
        } catch {
            Diagnostics.daemon.error("not started: cannot start the core thread: \(error)")
            return .refused
        }
        return await withTaskExecutorPreference(CoreExecutor.shared) {
            await serve(
                configPath: configPath, sources: sources, control: control, environment: environment, activation: activation)
        }
    }

    private static func serve(
        configPath: String, sources: SourceFactory, control: ControlFactory?, environment: [String: String],
        activation: [String: String]
    ) async -> ExitCode {
        let signals: SignalSource
        do {
            signals = try SignalSource([.terminate, .interrupt, .hangup])
        } catch {
            Diagnostics.daemon.error("cannot handle signals: \(error)")
            return .refused
        }
        defer { signals.cancel() }

        // A control socket systemd passed (locationd.socket); the variables go,
        // so nothing the daemon starts takes it for its own.
        let passed: PassedSocket?
        do {
            passed = try SocketActivation(environment: activation).controlSocket()
        } catch {
            Diagnostics.daemon.error("not started: \(error)")
            return .refused
        }
        SocketActivation.unsetProcessEnvironment()

        let config: DaemonConfig
        do {
            config = try ConfigLoader.load(path: configPath)
        } catch {
            for problem in error.errors { Diagnostics.daemon.error(problem.description) }
            Diagnostics.daemon.error("not started: the configuration has errors (locationd check-config --config \(configPath) lists them)")
            return .configuration
        }
        // What only this machine can say (a face's sockets' groups exist).
        let hostProblems = FaceList.hostProblems(config)
        guard hostProblems.isEmpty else {
            for problem in hostProblems { Diagnostics.daemon.error(problem.description) }
            Diagnostics.daemon.error("not started: the configuration has errors (locationd check-config --config \(configPath) lists them)")
            return .configuration
        }
        let clientNames = config.clients.map(\.name).joined(separator: ", ")
        Diagnostics.daemon.notice(
            "locationd \(LocationdVersion.string) starting: configuration \(configPath), "
                + "source\(config.sources.count == 1 ? "" : "s") \(NamedSource.names(config.sources)), "
                + (config.clients.isEmpty ? "no clients" : "clients \(clientNames)"))

        // Before the state is read: a second daemon must not set aside, rewrite or
        // race the state file (or append to the logs) of the one already running.
        // (systemd listening on a socket it passed is not another daemon.)
        if control != nil, passed == nil, isServed(config.socket) {
            Diagnostics.daemon.error(
                "not started: another locationd is running on \(config.socket); stop it first (systemctl stop locationd), "
                    + "or give this one another socket, state_dir and log_dir")
            return .refused
        }

        // The faces are made before the core: the clients they make are clients from the start,
        // so their saved state applies (issue #38).
        let faces = FaceList.make(config)
        let core: DaemonCore
        do {
            core = try DaemonCore(config: config, seed: DaemonCore.randomSeed(), faces: faces)
        } catch {
            for line in error.description.split(separator: "\n") { Diagnostics.daemon.error(String(line)) }
            Diagnostics.daemon.error("not started: the logs cannot be opened")
            return .refused
        }

        var services: [any Service] = [CoreService(core: core)]
        do {
            try services.append(contentsOf: faceServices(faces, .beforeControl, config: config, core: core))
            if let control { services.append(try control(config, core, passed)) }
            try services.append(contentsOf: faceServices(faces, .afterControl, config: config, core: core))
        } catch {
            Diagnostics.daemon.error("not started: \(error)")
            core.abandon()
            return .refused
        }
        // One service, one reader thread, per source; each tags its events with its index.
        for (index, source) in config.sources.enumerated() {
            services.append(SourceService(source: sources(source.endpoint), core: core, index: index, named: source.name))
        }
        let notifier = NotifierService(notifier: SystemdNotifier(environment: environment), core: core)
        services.append(notifier)

        let group = ServiceGroup(
            services: services, signals: signals.signals,
            onHangup: {
                await reload(configPath: configPath, core: core, notifier: notifier)
            },
            onStopping: { reason in
                Diagnostics.daemon.notice("stopping (\(reason))")
            })
        Diagnostics.daemon.notice("ready: \(core.statusLine())")
        do {
            try await group.run()
        } catch {
            Diagnostics.daemon.error("stopped: \(error)")
            return .refused
        }
        // A decision the state file lacks is undone by the next start: say which (#32).
        if let lost = core.lostAtShutdown {
            let what = lost.isEmpty ? "no decision is lost, only the reduced-accuracy clocks" : "the next start undoes: " + lost.joined(separator: "; ")
            Diagnostics.daemon.error("stopped, but the state could not be saved to \(core.config.statePath): \(what)")
            return .refused
        }
        Diagnostics.daemon.notice("stopped cleanly")
        return .ok
    }

    /// The services of `faces` that start at `start`, in the faces' order.
    private static func faceServices(
        _ faces: [any Face], _ start: FaceStart, config: DaemonConfig, core: DaemonCore
    ) throws -> [any Service] {
        try faces.filter { $0.start == start }.compactMap { try $0.service(config: config, core: core) }
    }

    /// Whether a server answers on the Unix socket at `path` (a daemon runs there).
    static func isServed(_ path: String) -> Bool {
        guard let address = UnixSocketAddress(path: path),
            let fd = try? UnixSocketAddress.makeSocket(nonBlocking: true)
        else { return false }
        defer { close(fd) }
        switch address.connect(fd) {
        case 0, EAGAIN, EINPROGRESS: return true
        default: return false
        }
    }

    /// SIGHUP: reopens the logs, then reads the configuration again and hands
    /// it to the core; a file with errors is reported and the running
    /// configuration kept.
    public static func reload(configPath: String, core: DaemonCore, notifier: NotifierService?) async {
        Diagnostics.daemon.notice("SIGHUP: reopening the logs and reloading \(configPath)")
        notifier?.reloading()
        core.reopenLogs()
        do {
            let config = try ConfigLoader.load(path: configPath)
            let running = core.config
            let needRestart = core.reload(config)
            let changes = ConfigChanges.between(running, core.config)
            Diagnostics.daemon.notice(
                "reloaded the configuration from \(configPath): "
                    + (changes.isEmpty ? "no setting changed" : changes.joined(separator: "; ")))
            if !needRestart.isEmpty {
                Diagnostics.daemon.warning(
                    "changes to \(needRestart.joined(separator: ", ")) take effect only after a restart "
                        + "(systemctl restart locationd); the running values are kept until then")
            }
        } catch {
            for problem in error.errors { Diagnostics.daemon.error(problem.description) }
            Diagnostics.daemon.error("kept the running configuration: \(configPath) has the errors above")
        }
        await notifier?.reloaded()
    }
}
