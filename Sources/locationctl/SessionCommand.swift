#if canImport(Glibc)
import Glibc
#endif
import LocationProtocol
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// `session CLIENT -- COMMAND…`: begins CLIENT's session on a connection of its own, runs
/// COMMAND, holds the session while it runs (as `systemd-inhibit` and `flock` hold theirs),
/// ends it, and exits with COMMAND's status. An app's session ends with the connection that
/// began it, so it lasts exactly as long as this process.
enum SessionCommand {
    /// How often the held connection says `hello`, well inside the daemon's idle timeout.
    static let keepAlive: Double = 20

    static func run(client name: String, command: [String], socket: String, json: Bool) -> Int32 {
        let connection: ControlClient
        do throws(ControlClientError) {
            connection = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            if let refused = try begin(name, on: connection, json: json) { return refused.rawValue }
        } catch {
            Console.error("locationctl: \(error)\n")
            return error.exitCode.rawValue
        }
        let process: SpawnedProcess
        do throws(SystemError) {
            process = try SpawnedProcess(arguments: command)
        } catch {
            Console.error("locationctl: \(error)\n")
            end(name, on: connection, json: json)
            return 127
        }
        // As system(3): Ctrl-C and Ctrl-\ are the command's to take; the session ends after it.
        // SIGTERM and SIGHUP are handed on to it.
        signal(SIGINT, SIG_IGN)
        signal(SIGQUIT, SIG_IGN)
        Interruption.catchStops([SIGTERM, SIGHUP])
        let connected = hold(connection, until: process, client: name)
        let status = process.wait()
        if connected { end(name, on: connection, json: json) }
        return status
    }

    /// Waits for `process` to end, saying `hello` every `keepAlive` seconds so the daemon
    /// keeps the connection; returns whether the connection is still there.
    static func hold(_ connection: ControlClient, until process: SpawnedProcess, client: String) -> Bool {
        var connected = true
        var handedOn = false
        while true {
            if !handedOn, Interruption.requested != 0 {
                kill(process.pid, Interruption.requested)
                handedOn = true
            }
            var fds = [
                pollfd(fd: process.pidfd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: connected ? connection.fileDescriptor : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(keepAlive * 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                return connected
            }
            if fds[0].revents != 0 { return connected }
            do throws(ControlClientError) {
                if fds[1].revents != 0 {
                    // Nothing is asked: what comes is the daemon's last word before it closes.
                    while case .line = try connection.pollLine() {}
                    if case .end = try connection.pollLine() { throw .closed(path: connection.path) }
                } else if ready == 0, connected {
                    _ = try connection.request(.hello, id: 2, timeout: RequestCommand.replyTimeout)
                }
            } catch {
                connected = false
                Console.error("locationctl: \(error); \(client)'s session is no longer held, the command goes on\n")
            }
        }
    }

    /// Sends `session CLIENT begin` on `connection`; the exit status when it was refused.
    static func begin(_ name: String, on connection: ControlClient, json: Bool) throws(ControlClientError) -> ExitCode? {
        let begin = ControlRequest.Operation.command(.session(client: name, inUse: true))
        let (line, reply) = try connection.request(begin, id: 1, timeout: RequestCommand.replyTimeout)
        return reply.isOK ? nil : RequestCommand.show(reply, line: line, for: begin, json: json)
    }

    /// The one-shot `session CLIENT begin`: sent for the operator (whose session lasts until
    /// `end`); for the client's app, which it would hold for no time at all, refused with the
    /// forms that hold it (`NextStepText.oneShotSessionRefusal`).
    static func oneShot(client name: String, socket: String, json: Bool) -> ExitCode {
        do throws(ControlClientError) {
            let connection = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            let (_, status) = try connection.request(.status(client: name), id: 1, timeout: RequestCommand.replyTimeout)
            if let reader = (try? status.statusReport())?.reader,
                let refusal = NextStepText.oneShotSessionRefusal(client: name, reader: reader)
            {
                Console.error(refusal)
                return .refused
            }
        } catch {
            Console.error("locationctl: \(error)\n")
            return error.exitCode
        }
        return RequestCommand.run(.command(.session(client: name, inUse: true)), socket: socket, json: json)
    }

    /// `session CLIENT end` on the connection that began it (an operator's session outlives a
    /// connection; an app's ends with it anyway).
    static func end(_ name: String, on connection: ControlClient, json: Bool) {
        let end = ControlRequest.Operation.command(.session(client: name, inUse: false))
        do throws(ControlClientError) {
            let (line, reply) = try connection.request(end, id: 3, timeout: RequestCommand.replyTimeout)
            if !reply.isOK { _ = RequestCommand.show(reply, line: line, for: end, json: json) }
        } catch {
            Console.error("locationctl: \(error)\n")
        }
    }
}
