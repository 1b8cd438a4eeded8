#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationValues
import LocationSystem

/// One receiver's raw capture file (`raw_log`, locationd.conf(5)) and its RTKLIB time-tag file
/// beside it (`FILE.tag`, `RTKLIBTimeTag`): the bytes the receiver sent, in order and unchanged,
/// gathered as they come (`append`) and written in one `write(2)` per flush, each chunk's tick
/// and end then added to the tag file.
///
/// Crash safety, as the coordinate log's: both files are opened through `SafeFile` (no symbolic
/// link, only a regular file of the daemon's user); at open, a tag file's torn last entry is cut
/// off and the stream is cut back to the end the last whole entry names, so every byte in the
/// stream is tagged and a replay never meets bytes of a write that did not finish. A write that
/// fails part-way is cut back and its bytes dropped (counted in `bytesLost`); the first
/// failure of an episode is returned for the caller to report.
///
/// Not thread-safe: one owner (the daemon core) calls it.
public final class RawCaptureWriter {
    /// The stream file's path; the tags are at `path + ".tag"`.
    public let path: String
    /// When the file started (UTC seconds): its tags count milliseconds from here.
    public let start: Double
    /// Bytes written to the stream since it was opened.
    public private(set) var bytesWritten: Int64 = 0
    /// Bytes that could not be written (a write failed).
    public private(set) var bytesLost: Int64 = 0
    /// Writes that reached the file.
    public private(set) var writes = 0
    /// The latest failure, while writing fails.
    public private(set) var lastError: SystemError?

    private var fd: Int32
    private var tagFD: Int32
    /// The stream's size on disk (the end of its last whole chunk).
    private var size: Int64
    private var pending: [UInt8] = []
    private var pendingChunks: [(tick: UInt32, end: Int64)] = []
    private let fsync: FsyncPolicy

    /// Opens (creating it, its tag file and directories as needed) the capture at `path`; a new
    /// or empty tag file gets its header with `start` and `openTick`, an existing one keeps its own.
    public init(path: String, start: Double, openTick: UInt32, fsync: FsyncPolicy) throws(SystemError) {
        self.path = path
        self.fsync = fsync
        let tagPath = path + ".tag"
        let opened = try SafeFile.open(
            path, flags: O_RDWR | O_APPEND, create: true, mode: LogWriter.fileMode, directoryMode: LogWriter.directoryMode)
        fd = opened.fd
        do {
            tagFD = try SafeFile.open(
                tagPath, flags: O_RDWR | O_APPEND, create: true, mode: LogWriter.fileMode, directoryMode: LogWriter.directoryMode
            ).fd
        } catch {
            Glibc.close(opened.fd)
            throw error
        }
        do {
            (self.start, size) = try Self.repair(fd: fd, tagFD: tagFD, path: path, start: start, openTick: openTick)
        } catch {
            Glibc.close(fd)
            Glibc.close(tagFD)
            throw error
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
        if tagFD >= 0 { Glibc.close(tagFD) }
    }

    /// The stream's size with what is gathered and not yet written.
    public var fileBytes: Int64 { size + Int64(pending.count) }

    /// Gathers `bytes`, received at `time` (UTC seconds), for the next `flush`.
    public func append(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        guard fd >= 0, !bytes.isEmpty else { return }
        pending.append(contentsOf: bytes)
        let tick = UInt32(clamping: Int64(max(0, (time - start) * 1000).rounded()))
        pendingChunks.append((tick, size + Int64(pending.count)))
    }

    /// Writes what was gathered: the stream in one write, then the chunks' tags. Returns the
    /// error when this begins a failure episode (later failures of it return nil).
    public func flush() -> SystemError? {
        guard fd >= 0, !pending.isEmpty else { return nil }
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingChunks.removeAll(keepingCapacity: true)
        }
        do {
            try DescriptorIO.writeAll(fd, pending)
        } catch {
            if error.written > 0 { _ = ftruncate(fd, off_t(size)) }
            bytesLost += Int64(pending.count)
            return fail(SystemError("write \(path)", errno: error.errno))
        }
        var tags: [UInt8] = []
        tags.reserveCapacity(pendingChunks.count * RTKLIBTimeTag.entrySize)
        for chunk in pendingChunks { tags += RTKLIBTimeTag.entry(.init(tick: chunk.tick, end: UInt64(chunk.end))) }
        do {
            try DescriptorIO.writeAll(tagFD, tags)
        } catch {
            // Untagged bytes would be replayed at the wrong time: both files go back.
            _ = ftruncate(fd, off_t(size))
            if error.written > 0 { _ = ftruncate(tagFD, off_t(Self.tagSize(tagFD) - error.written)) }
            bytesLost += Int64(pending.count)
            return fail(SystemError("write \(path).tag", errno: error.errno))
        }
        size += Int64(pending.count)
        bytesWritten += Int64(pending.count)
        writes += 1
        if fsync == .always {
            _ = fdatasync(fd)
            _ = fdatasync(tagFD)
        }
        lastError = nil
        return nil
    }

    /// Writes what was gathered, syncs and closes both files; later calls do nothing.
    public func close() -> SystemError? {
        guard fd >= 0 else { return nil }
        let error = flush()
        _ = fdatasync(fd)
        _ = fdatasync(tagFD)
        Glibc.close(fd)
        Glibc.close(tagFD)
        fd = -1
        tagFD = -1
        return error
    }

    private func fail(_ error: SystemError) -> SystemError? {
        defer { lastError = error }
        return lastError == nil ? error : nil
    }

    private static func tagSize(_ fd: Int32) -> Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Makes the pair whole: an empty tag file gets its header; a tag file's torn last entry is
    /// cut off, and the stream cut back to the last entry's end. Returns the file's start and
    /// the stream's size.
    private static func repair(fd: Int32, tagFD: Int32, path: String, start: Double, openTick: UInt32) throws(SystemError) -> (Double, Int64) {
        var info = stat()
        try retryingEINTR("fstat \(path).tag") { fstat(tagFD, &info) }
        let tagBytes = Int(info.st_size)
        if tagBytes < RTKLIBTimeTag.headerSize {
            // New (or a header torn by a crash): the stream has no tagged byte.
            try retryingEINTR("ftruncate \(path).tag") { ftruncate(tagFD, 0) }
            try retryingEINTR("ftruncate \(path)") { ftruncate(fd, 0) }
            do {
                try DescriptorIO.writeAll(tagFD, RTKLIBTimeTag.header(start: start, openTick: openTick))
            } catch {
                throw SystemError("write \(path).tag", errno: error.errno)
            }
            return (start, 0)
        }
        let whole = RTKLIBTimeTag.headerSize + (tagBytes - RTKLIBTimeTag.headerSize) / RTKLIBTimeTag.entrySize * RTKLIBTimeTag.entrySize
        var tags = [UInt8](repeating: 0, count: whole)
        let read = tags.withUnsafeMutableBytes { pread(tagFD, $0.baseAddress, whole, 0) }
        guard read == whole, let parsed = RTKLIBTimeTag.parse(tags) else {
            throw SystemError("read \(path).tag", errno: read < 0 ? errno : EINVAL)
        }
        if whole < tagBytes { try retryingEINTR("ftruncate \(path).tag") { ftruncate(tagFD, off_t(whole)) } }
        let end = Int64(parsed.chunks.last?.end ?? 0)
        try retryingEINTR("fstat \(path)") { fstat(fd, &info) }
        if Int64(info.st_size) > end { try retryingEINTR("ftruncate \(path)") { ftruncate(fd, off_t(end)) } }
        return (parsed.start, min(end, Int64(info.st_size)))
    }
}
