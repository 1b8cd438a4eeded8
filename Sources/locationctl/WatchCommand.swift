import LocationCore
import LocationTools
import LocationClient
import LocationSystem

/// `watch [CLIENT]`: one line per event until interrupted or the daemon goes.
enum WatchCommand {
    static func run(client name: String?, socket: String, json: Bool) -> ExitCode {
        let operation = ControlRequest.Operation.watch(client: name)
        do throws(ControlClientError) {
            let client = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            let (line, reply) = try client.request(operation, id: 1, timeout: RequestCommand.replyTimeout)
            let status = RequestCommand.show(reply, line: line, for: operation, json: json)
            guard reply.isOK else { return status }
            if let withheld = try? reply.withheld() {
                Console.error("locationctl: \(withheld.code): \(withheld.message)\n")
            }
            var transcript = WatchTranscript()
            while let line = try client.readLine(timeout: nil) {
                if let end = show(line, json: json, transcript: &transcript) { return end }
            }
            Console.error("locationctl: locationd at \(socket) closed the connection (is it stopping?)\n")
            return .unreachable
        } catch {
            Console.error("locationctl: \(error)\n")
            return error.exitCode
        }
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
