#if canImport(Glibc)
import Glibc
#endif
import LocationProtocol
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// `locate CLIENT [--timeout S]`: watch the client, ask for one location on a
/// second connection, and print the location (or the `location-unknown`
/// error) that the watch then carries.
enum LocateCommand {
    /// Seconds beyond the locate's own timeout to wait for its outcome.
    static let margin: Double = 5
    /// How often to ask the daemon whether the locate is still pending.
    static let checkInterval: Double = 2

    static func run(client name: String, timeout: Double?, socket: String, json: Bool) -> ExitCode {
        let operation = ControlRequest.Operation.command(.locate(client: name, timeout: timeout))
        // On a terminal, one line that says what the wait is for, rewritten in place.
        let terminal = isatty(STDERR_FILENO) == 1
        var shown = false
        func clear() {
            if shown { Console.eraseErrorLine() }
            shown = false
        }
        do throws(ControlClientError) {
            // Watch first, so the outcome cannot slip past before the watch starts.
            let watcher = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            let (watchLine, watchReply) = try watcher.request(.watch(client: name), id: 1, timeout: RequestCommand.replyTimeout)
            guard watchReply.isOK else {
                return RequestCommand.show(watchReply, line: watchLine, for: .watch(client: name), json: json)
            }
            let commander = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            // A position that cannot come is said at once, with what would change that.
            if let report = try status(of: name, on: commander), let blocked = LocateWait.blocker(report, client: name) {
                Console.error(blocked)
                return .refused
            }
            let (line, reply) = try commander.request(operation, id: 2, timeout: RequestCommand.replyTimeout)
            guard reply.isOK else { return RequestCommand.show(reply, line: line, for: operation, json: json) }

            let start = SystemClock.monotonic()
            let deadline = timeout.map { start + $0 + margin }
            var nextCheck = start
            var endedAt: Double?
            var lastReason: String?
            while true {
                let now = SystemClock.monotonic()
                let last = lastReason.map { "; the last reason no fix was delivered: \($0)" } ?? ""
                if let deadline, now >= deadline {
                    clear()
                    Console.error(
                        "locationctl: no location for \(name) within \(format(timeout ?? 0)) s (+\(format(margin)) s), and no word from locationd\(last)\n")
                    return .refused
                }
                if let endedAt, now >= endedAt + 1 {
                    clear()
                    Console.error("locationctl: the locate of \(name) ended without a location reaching locationctl\(last); see: \(CommandWord.status.commandLine(name))\n")
                    return .refused
                }
                if now >= nextCheck && endedAt == nil {
                    // Without a timeout of our own, the daemon's state bounds the wait.
                    nextCheck = now + checkInterval
                    if let report = try status(of: name, on: commander),
                        let client = report.status.clients.first(where: { $0.authorization.client == name })
                    {
                        if !client.locatePending {
                            endedAt = now
                        } else if let blocked = LocateWait.blocker(report, client: name) {
                            // The client went out of use, was revoked, services went off: say so now.
                            clear()
                            Console.error(blocked)
                            return .refused
                        } else {
                            lastReason = LocateWait.reason(client)
                            if terminal {
                                Console.eraseErrorLine()
                                Console.error(LocateWait.progress(client))
                                shown = true
                            }
                        }
                    }
                }
                let wait = max(0.05, min(nextCheck, deadline ?? .infinity, (endedAt ?? .infinity) + 1) - now)
                let line: [UInt8]?
                do throws(ControlClientError) {
                    line = try watcher.readLine(timeout: wait)
                } catch .timedOut {
                    continue
                }
                guard let line else {
                    clear()
                    Console.error("locationctl: locationd at \(socket) closed the connection (is it stopping?)\n")
                    return .unreachable
                }
                if isOutcome(line, client: name) { clear() }
                if let result = outcome(of: line, client: name, json: json) { return result }
            }
        } catch {
            clear()
            Console.error("locationctl: \(error)\n")
            return error.exitCode
        }
    }

    /// The daemon's status of `client` (`nil` when the reply is not one).
    static func status(of client: String, on connection: ControlClient) throws(ControlClientError) -> StatusReport? {
        let (_, reply) = try connection.request(.status(client: client), id: 3, timeout: RequestCommand.replyTimeout)
        return try? reply.statusReport()
    }

    /// Whether `line` ends the wait (so the progress line goes first).
    static func isOutcome(_ line: [UInt8], client: String) -> Bool {
        guard case .event(let event)? = try? ServerMessage.decode(line) else { return true }
        switch event.kind {
        case .location(let record): return record.client == client
        case .engine(.error(let who, _, _)): return who == client
        default: return false
        }
    }

    /// The exit status if `line` is the locate's outcome for `client`: a
    /// location (printed), or an error event (explained).
    static func outcome(of line: [UInt8], client: String, json: Bool) -> ExitCode? {
        guard case .event(let event)? = try? ServerMessage.decode(line) else {
            // The stream's last word (too slow, stopping) ends the wait too.
            return WatchCommand.show(line, json: json)
        }
        switch event.kind {
        case .location(let record) where record.client == client:
            // The line `watch` prints: the time it came, then the fix's own time (its age shows).
            if json {
                Console.out(bytes: line + [0x0A])
            } else {
                Console.out(EventRenderer.render(event, receivedAt: SystemClock.utc()) + "\n")
            }
            return .ok
        case .engine(.error(let who, let code, let message)) where who == client:
            if json { Console.out(bytes: line + [0x0A]) }
            Console.error(
                ReplyRenderer.renderError(
                    code: code.rawValue, message: "\(client): \(code.rawValue): \(message)",
                    for: .command(.locate(client: client, timeout: nil))))
            return .refused
        default:
            return nil
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
