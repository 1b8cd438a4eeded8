#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationSystem

/// Every client's raw captures (`raw_log`, locationd.conf(5)): for each client and each receiver
/// whose bytes it may take (`Engine.rawCaptureClients`), a `RawCaptureWriter` in the files its
/// pattern names — `%r` the receiver, the time fields and `split` by the time the bytes came
/// (the system clock: raw bytes carry no time of their own until parsed). Bytes are gathered
/// per file and written in one write when the source pauses (`writeBatches`), at the tick,
/// and before a cut, a reopen or a close. Used by the daemon's core.
///
/// Not thread-safe: one owner (the daemon core) calls it.
public final class RawCaptures {
    private struct Capture {
        var client: String
        var device: String
        var file: LogFilePattern.File
        var writer: RawCaptureWriter?
    }

    private var patterns: [String: LogFilePattern] = [:]
    private var captures: [Capture] = []
    private var fsync: FsyncPolicy
    private let logDirectory: String?
    /// Bytes written, and lost (a write or open failed), per client since the daemon started.
    public private(set) var written: [String: Int64] = [:]
    /// Bytes of a client's captures that could not be written.
    public private(set) var lost: [String: Int64] = [:]

    /// The captures `config` asks for (none is opened before its first bytes).
    public init(config: DaemonConfig, logDirectory: String? = nil) {
        fsync = config.fsync
        self.logDirectory = logDirectory
        reconfigure(config)
    }

    /// Whether any client has a `raw_log`.
    public var isWanted: Bool { !patterns.isEmpty }

    /// The files a client's captures write now (`status`), by receiver.
    public func paths(of client: String) -> [String] {
        captures.filter { $0.client == client && $0.writer != nil }.map(\.file.path)
    }

    /// Hands `bytes` of receiver `device`, received at `time` (UTC seconds), to the captures of
    /// `clients` (those that may take them now); every other client's capture of that receiver
    /// is closed at once. Returns the clients whose capture took them.
    @discardableResult
    public func append(_ bytes: [UInt8], device: String, time: Double, clients: [String]) -> [String] {
        var took: [String] = []
        for index in captures.indices.reversed() where captures[index].device == device && !clients.contains(captures[index].client) {
            close(captures.remove(at: index))
        }
        for client in clients {
            guard let pattern = patterns[client] else { continue }
            let index = place(client: client, device: device, pattern: pattern, time: time, bytes: bytes.count)
            guard let writer = captures[index].writer else {
                lost[client, default: 0] += Int64(bytes.count)
                continue
            }
            bytes.withUnsafeBytes { writer.append($0, at: time) }
            took.append(client)
        }
        return took
    }

    /// The capture of `client` and `device` whose file holds bytes of `time`, opened (and the
    /// one before it closed) when the time or size calls for a new file.
    private func place(client: String, device: String, pattern: LogFilePattern, time: Double, bytes: Int) -> Int {
        if let index = captures.firstIndex(where: { $0.client == client && $0.device == device }) {
            let current = captures[index]
            let size = current.writer?.fileBytes ?? 0
            if !pattern.needsCut(current.file, time: time, receiver: device, fileBytes: size, bytes: bytes) { return index }
            close(captures.remove(at: index))
            return open(client: client, device: device, file: pattern.file(for: time, receiver: device, after: current.file), pattern: pattern, time: time, bytes: bytes)
        }
        return open(client: client, device: device, file: pattern.file(for: time, receiver: device), pattern: pattern, time: time, bytes: bytes)
    }

    private func open(client: String, device: String, file: LogFilePattern.File, pattern: LogFilePattern, time: Double, bytes: Int) -> Int {
        var file = file
        var writer: RawCaptureWriter?
        let tick = UInt32(truncatingIfNeeded: Int64((SystemClock.monotonic() * 1000).rounded(.down)))
        // A size cut skips full files an earlier run left (at most a thousand).
        for _ in 0..<1000 {
            do {
                let opened = try RawCaptureWriter(path: file.path, start: time, openTick: tick, fsync: fsync)
                if file.period != nil || !pattern.needsCut(file, time: time, receiver: device, fileBytes: opened.fileBytes, bytes: bytes) {
                    writer = opened
                    break
                }
                _ = opened.close()
                file = pattern.file(for: time, receiver: device, after: file)
            } catch {
                Diagnostics.log.error("cannot open the raw capture \(file.path) of client \(client) (\(error)); its bytes are not kept until the next file or SIGHUP opens")
                break
            }
        }
        if writer != nil { Diagnostics.log.notice("raw capture of \(device) for client \(client): \(file.path) (time tags in \(file.path).tag)") }
        captures.append(Capture(client: client, device: device, file: file, writer: writer))
        return captures.count - 1
    }

    private func close(_ capture: Capture) {
        guard let writer = capture.writer else { return }
        if let error = writer.close() { Diagnostics.log.error("cannot write the raw capture \(capture.file.path): \(error)") }
        count(capture, writer)
    }

    private func count(_ capture: Capture, _ writer: RawCaptureWriter) {
        written[capture.client, default: 0] += writer.bytesWritten
        lost[capture.client, default: 0] += writer.bytesLost
    }

    /// Writes every capture's gathered bytes (the source paused, or the tick).
    public func writeBatches() {
        for capture in captures {
            guard let writer = capture.writer, let error = writer.flush() else { continue }
            Diagnostics.log.error("cannot write the raw capture \(capture.file.path) (\(error)); its bytes are dropped until writing works again, never a part of them")
        }
    }

    /// Closes every capture (SIGHUP after a rename, a reload, shutdown); the next bytes open the
    /// file their time names again.
    public func closeAll() {
        for capture in captures { close(capture) }
        captures.removeAll()
    }

    /// Takes a reloaded configuration: every capture is closed and the next bytes open the files
    /// the new patterns name.
    public func reconfigure(_ config: DaemonConfig) {
        closeAll()
        fsync = config.fsync
        patterns = [:]
        for client in config.clients {
            if let pattern = config.rawLogPattern(forClient: client.name, logDirectory: logDirectory) { patterns[client.name] = pattern }
        }
    }
}
