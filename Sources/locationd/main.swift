// locationd: parse the command line, then run the daemon, a replay or a
// configuration check (docs/design.md §4). Everything else lives in LocationDaemon.
#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationSystem
import LocationDaemon

SignalSource.ignoreBenignSignals()

let code: ExitCode
switch DaemonArguments.parse(
    Array(CommandLine.arguments.dropFirst()),
    environment: ProcessEnvironment.values(of: [DaemonUsage.configEnvironmentVariable]))
{
case .failure(let usage):
    StandardStreams.write(usage.description + "\n", to: 2)
    code = usage.exitCode
case .success(.help(let command)):
    StandardStreams.write(DaemonUsage.help(for: command), to: 1)
    code = .ok
case .success(.version):
    StandardStreams.write("locationd \(LocationdVersion.string)\n", to: 1)
    code = .ok
case .success(.checkConfig(let path)):
    Diagnostics.priorityPrefixes = false
    code = CheckConfig.run(path: path)
case .success(.replay(let options)):
    // A batch job for a person: plain lines, and per-fix chatter (location-unknown) only in the summary.
    Diagnostics.priorityPrefixes = false
    Diagnostics.level = .notice
    code = ReplayCommand.run(options)
case .success(.run(let path)):
    // journald files `<N>` lines by priority; a person at a terminal reads them plain.
    Diagnostics.priorityPrefixes = getenv("JOURNAL_STREAM") != nil || !StandardStreams.isTerminal(2)
    // The main thread becomes the core thread (CoreExecutor); the daemon's
    // task, started there too, ends the program. A synchronous main: no
    // `dispatch_main`, and nothing runs on the cooperative pool.
    Task(executorPreference: CoreExecutor.shared) {
        let code = await Daemon.run(
            configPath: path, sources: DefaultSources.make,
            control: { config, core, passed in try ControlService(config: config, core: core, passed: passed) })
        exit(code.rawValue)
    }
    CoreExecutor.shared.runOnCurrentThread()
}
exit(code.rawValue)
