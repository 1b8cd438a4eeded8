#if canImport(Glibc)
import Glibc
#endif
import LocationCore

/// `locationd run`: start-up, the service group, SIGHUP and shutdown.
///
/// Start-up order, each step refusing to start (exit 1, every problem
/// logged) when it fails: signals are caught (so a SIGTERM during start-up
/// is not lost), the configuration is read, the state loaded (a corrupt file
/// set aside) and every log opened, the control socket bound, the source
/// started; then READY=1. The services run as a group in that order —
/// core, control, source, systemd — and stop in reverse: STOPPING=1, stop
/// reading, close and unlink the socket, then write and sync the logs and
/// save the state. SIGHUP reopens the logs and reloads the configuration,
/// keeping the running one when the file has errors.
public enum Daemon {
    /// Makes the fix source for a `[source]` section.
    public typealias SourceFactory = @Sendable (SourceConfig) -> any FixSource
    /// Makes the control-plane service (binding its socket) for the core; throws when it cannot.
    public typealias ControlFactory = @Sendable (DaemonConfig, DaemonCore) throws -> any Service

    /// Runs the daemon with the configuration at `configPath` until SIGTERM
    /// or SIGINT. Returns `.ok` after a clean stop, `.refused` when it could
    /// not start or a service failed.
    public static func run(
        configPath: String, sources: SourceFactory, control: ControlFactory? = nil,
        environment: [String: String] = SystemdNotifier.processEnvironment()
    ) async -> ExitCode {
        // Everything asynchronous from here on runs on the core thread, none of it on the cooperative pool.
        do {
            try CoreExecutor.shared.start()
        } catch {
            Diagnostics.error("not started: cannot start the core thread: \(error)")
            return .refused
        }
        return await withTaskExecutorPreference(CoreExecutor.shared) {
            await serve(configPath: configPath, sources: sources, control: control, environment: environment)
        }
    }

    private static func serve(
        configPath: String, sources: SourceFactory, control: ControlFactory?, environment: [String: String]
    ) async -> ExitCode {
        let signals: SignalSource
        do {
            signals = try SignalSource([.terminate, .interrupt, .hangup])
        } catch {
            Diagnostics.error("cannot handle signals: \(error)")
            return .refused
        }
        defer { signals.cancel() }

        let config: DaemonConfig
        do {
            config = try ConfigLoader.load(path: configPath)
        } catch {
            for problem in error.errors { Diagnostics.error(problem.description) }
            Diagnostics.error("not started: the configuration has errors (locationd check-config --config \(configPath) lists them)")
            return .refused
        }
        let clientNames = config.clients.map(\.name).joined(separator: ", ")
        Diagnostics.notice(
            "locationd \(LocationdVersion.string) starting: configuration \(configPath), source \(DaemonCore.name(of: config.source)), "
                + (config.clients.isEmpty ? "no clients" : "clients \(clientNames)"))

        // Before the state is read: a second daemon must not set aside, rewrite or
        // race the state file (or append to the logs) of the one already running.
        if control != nil, isServed(config.socket) {
            Diagnostics.error(
                "not started: another locationd is running on \(config.socket); stop it first (systemctl stop locationd), "
                    + "or give this one another socket, state_dir and log_dir")
            return .refused
        }

        let core: DaemonCore
        do {
            core = try DaemonCore(config: config, seed: DaemonCore.randomSeed())
        } catch {
            for line in error.description.split(separator: "\n") { Diagnostics.error(String(line)) }
            Diagnostics.error("not started: the logs cannot be opened")
            return .refused
        }

        var services: [any Service] = [CoreService(core: core)]
        if let control {
            do {
                services.append(try control(config, core))
            } catch {
                Diagnostics.error("not started: \(error)")
                core.abandon()
                return .refused
            }
        }
        services.append(SourceService(source: sources(config.source), core: core))
        let notifier = NotifierService(notifier: SystemdNotifier(environment: environment), core: core)
        services.append(notifier)

        let group = ServiceGroup(
            services: services, signals: signals.signals,
            onHangup: {
                await reload(configPath: configPath, core: core, notifier: notifier)
            },
            onStopping: { reason in
                Diagnostics.notice("stopping (\(reason))")
            })
        Diagnostics.notice("ready: \(core.statusLine())")
        do {
            try await group.run()
        } catch {
            Diagnostics.error("stopped: \(error)")
            return .refused
        }
        Diagnostics.notice("stopped cleanly")
        return .ok
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
        Diagnostics.notice("SIGHUP: reopening the logs and reloading \(configPath)")
        notifier?.reloading()
        core.reopenLogs()
        do {
            let config = try ConfigLoader.load(path: configPath)
            let needRestart = core.reload(config)
            Diagnostics.notice("reloaded the configuration from \(configPath)")
            if !needRestart.isEmpty {
                Diagnostics.warning(
                    "changes to \(needRestart.joined(separator: ", ")) take effect only after a restart "
                        + "(systemctl restart locationd); the running values are kept until then")
            }
        } catch {
            for problem in error.errors { Diagnostics.error(problem.description) }
            Diagnostics.error("kept the running configuration: \(configPath) has the errors above")
        }
        await notifier?.reloaded()
    }
}
