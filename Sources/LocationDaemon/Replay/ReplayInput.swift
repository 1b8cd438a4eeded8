#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem

/// One recording of a replay: an NMEA file (or standard input) read a chunk at
/// a time through its own parser, its fixes named by its path as the daemon
/// names an NMEA device's (docs/sources.md, "Several receivers"). Standard
/// input names no receiver. `Replayer` takes the earliest pending fix of all
/// its inputs, so several recordings interleave by time without any being read
/// whole.
final class ReplayInput {
    /// The path as given (`-`: standard input).
    let path: String
    /// Bytes read so far.
    private(set) var bytes = 0
    /// Why reading stopped early, if it did (what was read before is still replayed).
    private(set) var error: SystemError?
    private let fd: Int32
    private var parser = NMEAParser()
    private var pending: [Fix] = []
    private var next = 0
    private var ended = false
    private var chunk: [UInt8] = []

    /// Opens `path`; `-` is standard input.
    init(path: String) throws(SystemError) {
        self.path = path
        if path == "-" {
            fd = 0
        } else {
            fd = try retryingEINTR("open \(path)") { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        }
    }

    deinit { if fd != 0 { close(fd) } }

    /// The parser's counts so far.
    var statistics: NMEAStatistics { parser.statistics }

    /// The next fix without taking it, reading on until there is one; `nil` at the end.
    func peek() -> Fix? {
        while next == pending.count {
            guard !ended else { return nil }
            pending.removeAll(keepingCapacity: true)
            next = 0
            fill()
        }
        return pending[next]
    }

    /// Takes the fix `peek` returned.
    func take() -> Fix? {
        guard let fix = peek() else { return nil }
        next += 1
        return fix
    }

    /// One chunk through the parser (the parser's rest at the end or on an error).
    private func fill() {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Replayer.chunkSize) }
        let device = path == "-" ? nil : path
        let keep: (Fix) -> Void = { [unowned self] fix in
            var fix = fix
            fix.device = device
            pending.append(fix)
        }
        let n: Int
        do {
            n = try DescriptorIO.read(fd, into: &chunk, name: path)
        } catch {
            self.error = error
            n = 0
        }
        if n == 0 {
            ended = true
            parser.finish(keep)
            return
        }
        bytes += n
        chunk.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n]), keep) }
    }
}
