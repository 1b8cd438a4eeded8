#if canImport(Glibc)
import Glibc
#endif
import LocationProtocol
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

// locationctl: parse (a pure function in LocationCore), then one command.

// A parent that started us from a thread with signals blocked would make
// Ctrl-C (and SIGTERM) do nothing to `watch` and `tail -f`.
var interrupting = sigset_t()
sigemptyset(&interrupting)
for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&interrupting, signal) }
sigprocmask(SIG_UNBLOCK, &interrupting, nil)

let status: ExitCode
switch CtlArguments.parse(
    Array(CommandLine.arguments.dropFirst()),
    environment: ProcessEnvironment.values(of: [ControlProtocol.socketEnvironmentVariable]))
{
case .failure(let usage):
    Console.error(usage.description + "\n")
    status = usage.exitCode
case .success(let invocation):
    switch invocation.action {
    case .help(let command):
        Console.out(CtlUsage.help(for: command))
        status = .ok
    case .completionScript(let shell):
        Console.out(CompletionScript.script(for: shell))
        status = .ok
    case .version:
        Console.out("locationctl \(LocationdVersion.string) (protocol \(ControlProtocol.version))\n")
        status = .ok
    case .request(.watch(let client)):
        status = WatchCommand.run(client: client, socket: invocation.socketPath, json: invocation.json)
    case .watchInUse(let client):
        status = WatchCommand.run(client: client, socket: invocation.socketPath, json: invocation.json, inUse: true)
    case .session(let client, let command):
        exit(SessionCommand.run(client: client, command: command, socket: invocation.socketPath, json: invocation.json))
    case .request(.command(.session(let client, true))):
        status = SessionCommand.oneShot(client: client, socket: invocation.socketPath, json: invocation.json)
    case .request(.command(.locate(let client, let timeout))):
        status = LocateCommand.run(client: client, timeout: timeout, socket: invocation.socketPath, json: invocation.json)
    case .request(let operation):
        status = RequestCommand.run(operation, socket: invocation.socketPath, json: invocation.json)
    case .statusSky(let client):
        status = RequestCommand.run(.status(client: client), socket: invocation.socketPath, json: invocation.json, sky: true)
    case .tail(let tail):
        status = TailCommand.run(tail, socket: invocation.socketPath, json: invocation.json)
    case .export(let export):
        status = ExportCommand.run(export)
    case .summary(let logs):
        status = SummaryCommand.run(logs, json: invocation.json)
    case .plot(let logs):
        status = PlotCommand.run(logs)
    }
}
exit(status.rawValue)
