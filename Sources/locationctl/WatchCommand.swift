import LocationProtocol
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// `watch [CLIENT]`: one line per event until interrupted or the daemon goes. With `inUse`
/// (`watch CLIENT --in-use`), CLIENT's session is begun on the watch's own connection first and
/// held while the watch runs: an app's ends with the connection, the operator's is ended here.
enum WatchCommand {
    static func run(client name: String?, socket: String, json: Bool, inUse: Bool = false) -> ExitCode {
        let operation = ControlRequest.Operation.watch(client: name)
        var endsSession: String?
        do throws(ControlClientError) {
            let client = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            if inUse, let name {
                // The operator's session outlives the connection: end it when the watch ends.
                let (_, status) = try client.request(.status(client: name), id: 3, timeout: RequestCommand.replyTimeout)
                if (try? status.statusReport())?.reader?.isOperator ?? true {
                    endsSession = name
                    Interruption.catchStops()
                }
                if let refused = try SessionCommand.begin(name, on: client, json: json) { return refused }
            }
            let (line, reply) = try client.request(operation, id: 1, timeout: RequestCommand.replyTimeout)
            let status = RequestCommand.show(reply, line: line, for: operation, json: json)
            guard reply.isOK else { return end(endsSession, socket: socket, json: json, status) }
            if let withheld = try? reply.withheld() {
                Console.error("locationctl: \(withheld.code): \(withheld.message)\n")
            }
            var transcript = WatchTranscript()
            while true {
                if Interruption.requested != 0 {
                    _ = end(endsSession, socket: socket, json: json, .ok)
                    Interruption.die(of: Interruption.requested)
                }
                let line: [UInt8]?
                do throws(ControlClientError) {
                    line = try client.readLine(timeout: endsSession == nil ? nil : 1)
                } catch .timedOut {
                    continue
                }
                guard let line else { break }
                if let code = show(line, json: json, transcript: &transcript) { return end(endsSession, socket: socket, json: json, code) }
            }
            Console.error("locationctl: locationd at \(socket) closed the connection (is it stopping?)\n")
            return .unreachable
        } catch {
            Console.error("locationctl: \(error)\n")
            return end(endsSession, socket: socket, json: json, error.exitCode)
        }
    }

    /// Ends the session `watch --in-use` began for the operator (on a connection of its own: a
    /// watching connection sends nothing more), then gives back `status`.
    static func end(_ client: String?, socket: String, json: Bool, _ status: ExitCode) -> ExitCode {
        guard let client else { return status }
        let end = ControlRequest.Operation.command(.session(client: client, inUse: false))
        do throws(ControlClientError) {
            let connection = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            let (line, reply) = try connection.request(end, id: 1, timeout: RequestCommand.replyTimeout)
            if !reply.isOK { _ = RequestCommand.show(reply, line: line, for: end, json: json) }
        } catch {
            Console.error("locationctl: the session of \(client) may still be held: \(error)\n")
        }
        return status
    }

    /// Prints one line of the stream that is no event (the stream's last word); returns the exit status it means.
    static func show(_ line: [UInt8], json: Bool) -> ExitCode? {
        var transcript = WatchTranscript()
        return show(line, json: json, transcript: &transcript)
    }

    /// Prints one line of the stream, the opening state under its header (`transcript`); returns the
    /// exit status when the line ends the stream.
    static func show(_ line: [UInt8], json: Bool, transcript: inout WatchTranscript) -> ExitCode? {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(line)
        } catch {
            Console.error("locationctl: skipping a line from locationd: \(error)\n")
            return nil
        }
        switch message {
        case .event(let event):
            if json {
                Console.out(bytes: line + [0x0A])
            } else {
                for text in transcript.lines(for: event, receivedAt: SystemClock.utc()) { Console.out(text + "\n") }
            }
            return nil
        case .reply(let reply):
            // A watcher gets a reply line only as the stream's last word: cut off, or the daemon stopping.
            if json { Console.out(bytes: line + [0x0A]) }
            guard let error = reply.error else { return nil }
            Console.error("locationctl: \(error.message)\n")
            return error.code == ProtocolError.Code.shuttingDown.rawValue ? .unreachable : .refused
        }
    }
}
