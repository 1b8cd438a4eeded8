#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// `locationd replay FILE... [--config PATH] [--events FILE] [--log-dir DIR] [--state FILE]`:
/// reads the configuration, the events and the state, runs the `Replayer`,
/// prints its summary on stdout. Every input it cannot use is refused (exit 1)
/// with what is wrong; `--state` is only read, never written or set aside.
public enum ReplayCommand {
    /// Largest events or state file read.
    public static let maximumInputSize = 64 << 20

    /// Runs the replay `options` describe; the summary goes to `output`.
    public static func run(
        _ options: DaemonInvocation.Replay, environment: [String: String] = ConfigLoader.processEnvironment(),
        output: (String) -> Void = { StandardStreams.write($0, to: 1) }
    ) -> ExitCode {
        let config: DaemonConfig
        do {
            config = try ConfigLoader.load(path: options.config, environment: environment)
        } catch {
            for problem in error.errors { Diagnostics.error(problem.description) }
            Diagnostics.error("replay refused: the configuration has errors")
            return .configuration
        }
        var events: [ReplayEvent] = []
        if let path = options.events {
            do {
                events = try ReplayEvents.parse(try read(path))
            } catch let error as ReplayEventsError {
                for line in error.description.split(separator: "\n") { Diagnostics.error("\(path): \(line)") }
                Diagnostics.error("replay refused: fix the events file (one JSON request with \"at\" per line)")
                return .refused
            } catch {
                Diagnostics.error("cannot read the events file \(path): \(error)")
                return .refused
            }
        }
        var saved: SavedState?
        if let path = options.state {
            do {
                saved = try StateCodec.decode(try read(path))
            } catch {
                Diagnostics.error("cannot start from the state file \(path): \(error)")
                return .refused
            }
        }
        for client in config.clients {
            guard let path = config.logPath(forClient: client.name, logDirectory: options.logDirectory) else { continue }
            var info = stat()
            if stat(path, &info) == 0, info.st_size > 0 {
                Diagnostics.warning(
                    "\(path) already holds \(info.st_size) bytes; the replay's lines are appended after them "
                        + "(use --log-dir with an empty directory for a log of this replay alone)")
            }
        }
        do {
            let summary = try Replayer.run(
                Replayer.Options(
                    inputs: options.inputs, config: config, events: events, logDirectory: options.logDirectory,
                    saved: saved))
            output(summary.text)
            return .ok
        } catch {
            Diagnostics.error("replay failed: \(error)")
            return .refused
        }
    }

    /// The whole of a file, at most `maximumInputSize` bytes.
    static func read(_ path: String) throws -> [UInt8] {
        let fd = try retryingEINTR("open \(path)") { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        defer { close(fd) }
        guard let bytes = try DescriptorIO.readAll(fd, limit: maximumInputSize, name: path) else {
            throw SystemError("read \(path): larger than \(maximumInputSize >> 20) MiB", errno: EFBIG)
        }
        return bytes
    }
}
