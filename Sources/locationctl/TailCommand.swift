#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationProtocol
import LocationValues
import LocationTools
import LocationClient
import LocationSystem

/// `tail [CLIENT|FILE] [-n N] [-f]`: the last records of a client's log, and
/// with `-f` the records appended since, across rotation.
enum TailCommand {
    /// How often `-f` looks for new records, in seconds.
    static let pollInterval: Double = 0.25

    static func run(_ tail: CtlInvocation.Tail, socket: String, json: Bool) -> ExitCode {
        let path: String
        switch tail.target {
        case .file(let file):
            path = file
        case .client(let name):
            switch logPath(of: name, socket: socket) {
            case .success(let found): path = found
            case .failure(let failure):
                Console.error("locationctl: \(failure.message)\n")
                return failure.code
            }
        }
        if path == "-" { return standardInput(lines: tail.lines, follow: tail.follow, json: json) }

        let follower: LogFollower
        do {
            follower = try LogFollower(path: path)
            for line in try follower.lastLines(tail.lines) { show(line, path: path, json: json) }
        } catch {
            Console.error("locationctl: cannot read \(path): \(String(cString: strerror(error.errno)))\n")
            return .refused
        }
        guard tail.follow else { return .ok }
        while true {
            usleep(useconds_t(pollInterval * 1_000_000))
            do {
                let update = try follower.readNew()
                if update.truncated { Console.error("locationctl: \(path) was truncated; reading it from the start\n") }
                if update.rotated { Console.error("locationctl: \(path) was rotated; following the new file\n") }
                for line in update.lines { show(line, path: path, json: json) }
            } catch {
                Console.error("locationctl: cannot read \(path): \(String(cString: strerror(error.errno)))\n")
                return .refused
            }
        }
    }

    /// Prints one log line: as it is with `--json`, else as a readable line.
    static func show(_ line: [UInt8], path: String, json: Bool) {
        switch line.withUnsafeBytes({ LogRecordStream.record(in: $0) }) {
        case nil:
            return
        case .success(let record):
            if json { Console.out(bytes: line + [0x0A]) } else { Console.out(EventRenderer.render(record, withDate: true) + "\n") }
        case .failure(let error):
            Console.error("locationctl: \(path): skipping a line that is not a record (\(error))\n")
        }
    }

    /// Where a client's log is, from the daemon's `hello`.
    static func logPath(of name: String?, socket: String) -> Result<String, Failure> {
        let hello: HelloReply
        do throws(ControlClientError) {
            let client = try ControlClient(path: socket, timeout: RequestCommand.replyTimeout)
            let (_, reply) = try client.request(.hello, id: 1, timeout: RequestCommand.replyTimeout)
            do {
                hello = try reply.hello()
            } catch {
                return .failure(Failure("\(error)", .refused))
            }
        } catch {
            let hint = "Give the log file instead: locationctl tail \(configuredLog(of: name))"
            return .failure(Failure("\(error)\n\(hint)", error.exitCode))
        }
        let names = hello.clients.map(\.name)
        guard let client = name.map({ wanted in hello.clients.first { $0.name == wanted } }) ?? hello.clients.first else {
            if let name {
                let unknown = ControlReply.unknownClient(id: nil, client: name, known: names)
                return .failure(Failure(unknown.error?.message ?? "no client named \"\(name)\"", .refused))
            }
            return .failure(Failure("locationd has no clients configured", .refused))
        }
        guard let log = client.log else {
            return .failure(Failure("client \(client.name) has no coordinate log (no log = … in its section of locationd.conf)", .refused))
        }
        return .success(log)
    }

    /// Where the configuration in /etc/locationd/locationd.conf puts a
    /// client's log (the first client's without a name), for the hint when
    /// the daemon cannot be asked; the default `log_dir` when it cannot be read.
    static func configuredLog(of name: String?) -> String {
        guard let config = try? ConfigLoader.load(path: DaemonConfig.defaultPath, environment: [:]) else {
            return DaemonConfig.join(DaemonConfig.defaultLogDirectory, "\(name ?? "logger").jsonl")
        }
        let client = name ?? config.clients.first?.name ?? "logger"
        return config.logPath(forClient: client) ?? DaemonConfig.join(config.logDirectory, "\(client).jsonl")
    }

    /// Why the log could not be found, and the exit status.
    struct Failure: Error {
        var message: String
        var code: ExitCode
        init(_ message: String, _ code: ExitCode) {
            self.message = message
            self.code = code
        }
    }

    /// `tail -`: the last lines of standard input.
    static func standardInput(lines count: Int, follow: Bool, json: Bool) -> ExitCode {
        if follow {
            Console.error("locationctl: tail -f cannot follow standard input; give the log file\n")
            return .usage
        }
        var last: [[UInt8]] = []
        var partial: [UInt8] = []
        // A read error ends the input as its end would: the lines read so far are shown.
        _ = try? DescriptorIO.readChunks(0, name: "standard input") { piece in
            for byte in piece {
                if byte == 0x0A {
                    last.append(partial)
                    partial = []
                    if last.count > count * 2 + 64 { last.removeFirst(last.count - count) }
                } else {
                    partial.append(byte)
                }
            }
        }
        for line in last.suffix(count) { show(line, path: "standard input", json: json) }
        return .ok
    }
}
