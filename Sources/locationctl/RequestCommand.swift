import LocationProtocol
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// Every command that is one request and one reply: print the reply for a
/// person (or as JSON) and exit with the status it calls for.
enum RequestCommand {
    /// How long to wait for a reply.
    static let replyTimeout: Double = 10

    /// With `sky`, a status reply is printed as each receiver's satellites (`status --sky`).
    static func run(_ operation: ControlRequest.Operation, socket: String, json: Bool, sky: Bool = false) -> ExitCode {
        do throws(ControlClientError) {
            let client = try ControlClient(path: socket, timeout: replyTimeout)
            let (line, reply) = try client.request(operation, id: 1, timeout: replyTimeout)
            if sky, !json, reply.isOK, let report = try? reply.statusReport() {
                Console.out(StatusRenderer.renderSky(report))
                return .ok
            }
            return show(reply, line: line, for: operation, json: json)
        } catch {
            Console.error("locationctl: \(error)\n")
            return error.exitCode
        }
    }

    /// Prints a reply: JSON as it came (a status reply as its status object),
    /// or the rendered text on stdout, an error on stderr.
    static func show(_ reply: ControlReply, line: [UInt8], for operation: ControlRequest.Operation, json: Bool) -> ExitCode {
        let (text, exitCode, isError) = ReplyRenderer.render(reply, for: operation)
        if json {
            if case .status = operation, reply.isOK, let status = reply["status"] {
                // JSON as it is: escaping is for the text a person reads.
                Console.out(bytes: Array((status.serialized + "\n").utf8))
            } else {
                Console.out(bytes: line + [0x0A])
            }
            if isError { Console.error(text) }
            return exitCode
        }
        if isError { Console.error(text) } else { Console.out(text) }
        return exitCode
    }
}
