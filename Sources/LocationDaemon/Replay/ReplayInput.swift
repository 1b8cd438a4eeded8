#if canImport(Glibc)
import Glibc
#endif
import LocationCodecs
import LocationCore
import LocationValues
import LocationSystem

/// One recording of a replay: an NMEA file or a gpsd JSON log (or standard
/// input), told apart by its first lines (`ReplayFormat`) and read a chunk at
/// a time through its own parser. An NMEA recording's fixes are named by its
/// path as the daemon names an NMEA device's (docs/sources.md, "Several
/// receivers"); a gpsd log's by each TPV's `device`, and by the path for a
/// TPV naming none. Standard input names no receiver. `Replayer` takes the
/// earliest pending fix of all its inputs, so several recordings interleave
/// by time without any being read whole.
final class ReplayInput {
    /// The path as given (`-`: standard input).
    let path: String
    /// Bytes read so far.
    private(set) var bytes = 0
    /// Why reading stopped early, if it did (what was read before is still replayed).
    private(set) var error: SystemError?
    /// What the file is; `nil` until its first lines have told.
    private(set) var format: ReplayFormat?
    private let fd: Int32
    private var nmea: NMEAParser?
    private var gpsd: GPSDLogParser?
    /// A gpsd log's TPVs are read as the live source reads them (tpv.c, libgps for the rest).
    private var tpvReader: GPSDShimTPVReader?
    /// The first bytes, kept until they tell the format.
    private var head: [UInt8] = []
    // `@exclusivity(unchecked)`: read and written for every fix, by the one replay that owns the
    // input and never re-entrantly (the parser's emit appends while `fill` runs, `take` reads
    // after); the runtime's check per access was 4 % of a replay's instructions with the
    // session's below (docs/performance.md).
    @exclusivity(unchecked) private var pending: [Fix] = []
    @exclusivity(unchecked) private var next = 0
    private var ended = false
    private var chunk: [UInt8] = []
    /// A raw capture's time tags (`FILE.tag` beside it, as `RawCaptureWriter` writes them): each
    /// chunk is fed with the time it came, and its fixes carry that time as their arrival.
    private var tags: RTKLIBTimeTag.Tags?
    /// The next tag whose chunk is not all fed.
    private var tagIndex = 0
    /// Bytes fed to the parser so far.
    private var fed = 0
    /// When the bytes being fed came (`nil`: untagged).
    private var arrival: Double?
    /// The pending fixes' arrivals, in step with `pending` (only for a tagged capture).
    @exclusivity(unchecked) private var arrivals: [Double?] = []
    /// Chunks fed with their tag's time.
    private(set) var taggedChunks = 0
    /// Why the tag file was not read, or not to its end.
    private(set) var tagProblem: String?

    /// Opens `path`; `-` is standard input.
    init(path: String) throws(SystemError) {
        self.path = path
        if path == "-" {
            fd = 0
        } else {
            fd = try retryingEINTR("open \(path)") { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
            readTags()
        }
    }

    /// Reads `FILE.tag`, if there is one; a tag file that is not RTKLIB's, cut short or going
    /// back is reported, and the bytes it does not time are read as an untagged file's.
    private func readTags() {
        let tagPath = path + ".tag"
        let tagFD = open(tagPath, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard tagFD >= 0 else { return }
        defer { close(tagFD) }
        let bytes: [UInt8]
        do {
            bytes = try DescriptorIO.readAll(tagFD, limit: 1 << 30, name: tagPath) ?? []
        } catch {
            return problem("cannot read \(tagPath) (\(error)): the bytes are read without their times")
        }
        guard var found = RTKLIBTimeTag.parse(bytes) else {
            return problem("\(tagPath) is not an RTKLIB time-tag file: the bytes are read without their times")
        }
        if let back = found.chunks.indices.dropLast().first(where: {
            found.chunks[$0 + 1].end < found.chunks[$0].end || found.chunks[$0 + 1].tick < found.chunks[$0].tick
        }) {
            found.chunks.removeSubrange((back + 1)...)
            problem("\(tagPath) is corrupt (entry \(back + 2) goes back): the bytes after byte \(found.chunks.last?.end ?? 0) are read without their times")
        } else if (bytes.count - RTKLIBTimeTag.headerSize) % RTKLIBTimeTag.entrySize != 0 {
            problem("\(tagPath) is cut short: the bytes after byte \(found.chunks.last?.end ?? 0) are read without their times")
        }
        tags = found
    }

    private func problem(_ message: String) {
        if tagProblem == nil { tagProblem = message }
        Diagnostics.warning(message)
    }

    deinit { if fd != 0 { close(fd) } }

    /// The receiver a fix naming none belongs to: the path, none for standard input.
    private var device: String? { path == "-" ? nil : path }

    /// The NMEA parser's counts so far (zero for a gpsd log).
    var statistics: NMEAStatistics { nmea?.statistics ?? NMEAStatistics() }

    /// The gpsd log parser's counts so far (zero for an NMEA recording).
    var gpsdStatistics: GPSDLogStatistics { gpsd?.statistics ?? GPSDLogStatistics() }

    /// Whether a fix is pending, reading on until there is one; false at the end.
    private func hasNext() -> Bool {
        while next == pending.count {
            guard !ended else { return false }
            pending.removeAll(keepingCapacity: true)
            arrivals.removeAll(keepingCapacity: true)
            next = 0
            fill()
        }
        return true
    }

    /// The time of the next fix (when its bytes came, for a tagged raw capture; -∞ for one without a finite time: the session drops it), read in
    /// place; `nil` at the end. `Replayer` picks the input to take from by it.
    func nextTime() -> Double? {
        guard hasNext() else { return nil }
        if tags != nil, let arrival = arrivals[next] { return arrival }
        return pending[next].time.flatMap { $0.isFinite ? $0 : nil } ?? -.infinity
    }

    /// Takes the next fix and when its bytes came (a tagged raw capture's); `nil` at the end.
    func take() -> (Fix, Double?)? {
        guard hasNext() else { return nil }
        next += 1
        return (pending[next - 1], tags == nil ? nil : arrivals[next - 1])
    }

    /// One chunk through the parser (the parser's rest at the end or on an error).
    private func fill() {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Replayer.chunkSize) }
        let n: Int
        do {
            n = try DescriptorIO.read(fd, into: &chunk, name: path)
        } catch {
            self.error = error
            n = 0
        }
        bytes += n
        ended = n == 0
        if format == nil {
            head.append(contentsOf: chunk[0..<n])
            guard let found = ReplayFormat.detect(head, ended: ended) ?? (head.count >= Replayer.chunkSize ? .nmea : nil)
            else { return }
            format = found
            switch found {
            case .nmea: nmea = NMEAParser(device: device)
            case .gpsdJSON:
                gpsd = GPSDLogParser(device: device)
                tpvReader = GPSDShimTPVReader()
            }
            let first = head
            head = []
            first.withUnsafeBytes { feed($0) }
        } else if n > 0 {
            chunk.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        if ended { finish() }
    }

    /// Feeds `bytes`, the file's next; a tagged capture's a tag's chunk at a time, each at its time.
    private func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let tags else { return parse(bytes) }
        let base = fed
        var from = 0
        while from < bytes.count {
            var to = bytes.count
            if tagIndex < tags.chunks.count {
                let chunk = tags.chunks[tagIndex]
                arrival = tags.start + Double(chunk.tick) / 1000
                let end = Int(clamping: chunk.end) - base
                if end <= bytes.count {
                    to = max(end, from)
                    tagIndex += 1
                    taggedChunks += 1
                }
            } else if arrival != nil {
                arrival = nil
                if tagProblem == nil { problem("\(path).tag ends at byte \(fed): the bytes after it are read without their times") }
            }
            parse(UnsafeRawBufferPointer(rebasing: bytes[from..<to]))
            fed = base + to
            from = to
        }
    }

    private func parse(_ bytes: UnsafeRawBufferPointer) {
        if nmea != nil {
            nmea?.feed(bytes) { [unowned self] in append($0) }
        } else if let tpvReader {
            gpsd?.feed(bytes, readingTPV: tpvReader.read) { [unowned self] in append($0) }
            report()
        }
    }

    private func append(_ fix: Fix) {
        pending.append(fix)
        if tags != nil { arrivals.append(arrival) }
    }

    private func finish() {
        if nmea != nil {
            nmea?.finish { [unowned self] in append($0) }
        } else if gpsd != nil, let tpvReader {
            gpsd?.finish(readingTPV: tpvReader.read) { [unowned self] in append($0) }
            report()
            let unlisted = (gpsd?.problemCount ?? 0) - GPSDLogParser.problemsListed
            if unlisted > 0 {
                Diagnostics.warning("\(name): \(unlisted) more problem\(unlisted == 1 ? "" : "s") not listed (counted in the summary)")
            }
        }
    }

    /// The gpsd log's new problems, one warning each.
    private func report() {
        guard let problems = gpsd?.takeProblems() else { return }
        for problem in problems { Diagnostics.warning("\(name): \(problem)") }
    }

    private var name: String { path == "-" ? "standard input" : path }

}
