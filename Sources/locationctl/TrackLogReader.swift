#if canImport(Glibc)
import Glibc
#endif
import LocationProtocol
import LocationTools
import LocationClient
import LocationSystem

/// Reads the logs `summary` and `plot` take as one track, through
/// `LogRecordStream`; bad lines are reported (the first few by number) and
/// skipped, as `export` does.
enum TrackLogReader {
    /// What was read.
    struct Logs {
        var track: Track
        var bytes: Int
        var badLines: Int
        var heartbeats = 0
    }

    /// The logs as one track, or `nil` after saying on stderr why one could not be read.
    static func read(_ logs: CtlInvocation.TrackLogs) -> Logs? {
        var builder = Track.Builder()
        var bytes = 0
        var bad = 0
        var heartbeats = 0
        for log in logs.logs {
            let name = log == "-" ? "standard input" : log
            let fd = log == "-" ? 0 : open(log, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else {
                Console.error("locationctl: cannot read \(log): \(String(cString: strerror(errno)))\n")
                return nil
            }
            defer { if fd != 0 { close(fd) } }
            var stream = LogRecordStream()
            var badHere = 0
            func take(_ result: Result<LogRecord, LogRecordStream.LineError>) {
                switch result {
                case .success(let record): builder.add(record)
                case .failure(let error):
                    badHere += 1
                    if badHere <= ExportCommand.reportLimit { Console.error("locationctl: \(name): \(error); skipped\n") }
                }
            }
            do {
                bytes += try DescriptorIO.readChunks(fd, name: name) { piece in stream.feed(piece) { take($0) } }
            } catch {
                Console.error("locationctl: \(error)\n")
                return nil
            }
            stream.finish { take($0) }
            heartbeats += stream.heartbeats
            if badHere > ExportCommand.reportLimit {
                Console.error("locationctl: \(name): \(badHere) lines skipped in all (the first \(ExportCommand.reportLimit) are listed above)\n")
            }
            bad += badHere
        }
        if builder.count == 0 && bad > 0 {
            Console.error("locationctl: \(logs.logs.joined(separator: ", ")) \(logs.logs.count == 1 ? "has" : "have") no records: is it a locationd coordinate log?\n")
            return nil
        }
        return Logs(track: builder.build(gap: logs.gap), bytes: bytes, badLines: bad, heartbeats: heartbeats)
    }
}
