#if canImport(Glibc)
import Glibc
#endif
import LocationSystem

/// Reads a coordinate log as `tail -F` does: the last lines first, then the
/// lines appended since, across log rotation (the path now names a new file:
/// the rest of the old one is read, then the new one from its start) and
/// truncation (the file got shorter: read again from its start).
///
/// Only complete lines are returned; a line still being written is held
/// until its newline arrives. Not thread-safe: one owner.
public final class LogFollower {
    /// What changed since the last `readNew`, besides new lines.
    public struct Update: Sendable, Hashable {
        /// New complete lines, without their `\n`, oldest first.
        public var lines: [[UInt8]] = []
        /// The path now names another file (rotated); reading moved to it.
        public var rotated = false
        /// The file got shorter (copied and truncated); reading started again at its start.
        public var truncated = false
    }

    /// The most bytes one `readNew` reads, so a huge backlog comes in slices.
    public static let sliceLimit = 4 << 20

    /// The log's path.
    public let path: String
    private var fd: Int32
    private var device: UInt64
    private var inode: UInt64
    private var offset: Int = 0
    private var partial: [UInt8] = []

    /// Opens the log at `path`; reading starts at its current end.
    public init(path: String) throws(SystemError) {
        self.path = path
        let opened = try Self.open(path)
        fd = opened.fd
        device = opened.device
        inode = opened.inode
        offset = opened.size
    }

    deinit {
        close(fd)
    }

    /// The last `count` complete lines before the current end of the file,
    /// oldest first. A last line without its newline is not one of them: it
    /// is returned by `readNew` once it is complete. After this, `readNew`
    /// continues from just after the last complete line.
    public func lastLines(_ count: Int) throws(SystemError) -> [[UInt8]] {
        var info = stat()
        try retryingEINTR("stat \(path)") { fstat(fd, &info) }
        let size = Int(info.st_size)
        var pieces: [[UInt8]] = []  // from the end backwards; joined they are the bytes from `start` to `size`
        var start = size
        var newlines = 0
        var endOfLastLine: Int?
        // Read backwards until count + 1 newlines are found (the one before the first line wanted).
        try DescriptorIO.readBackwards(fd, from: size, name: path) { piece, offset in
            for i in piece.indices.reversed() where piece[i] == 0x0A {
                if endOfLastLine == nil { endOfLastLine = offset + i + 1 }
                newlines += 1
            }
            pieces.append(Array(piece))
            start = offset
            return newlines <= count
        }
        guard let end = endOfLastLine else {
            // No complete line at all.
            offset = 0
            partial = []
            return []
        }
        offset = end
        partial = []
        let tail = Array(pieces.reversed().joined())
        var lines = tail[0..<(end - start)].split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        // The piece before the first newline may be part of an earlier line; the last split piece is empty.
        if lines.last?.isEmpty == true { lines.removeLast() }
        if start > 0 { lines.removeFirst() }
        return Array(lines.suffix(count))
    }

    /// The lines appended since the last call (or since `lastLines`), and
    /// whether the file was rotated or truncated meanwhile.
    public func readNew() throws(SystemError) -> Update {
        var update = Update()
        var info = stat()
        try retryingEINTR("stat \(path)") { fstat(fd, &info) }
        if Int(info.st_size) < offset {
            update.truncated = true
            offset = 0
            partial = []
        }
        try readAppended(into: &update.lines)

        // Rotated: the path names another file now. The old one was read to its end above.
        var current = stat()
        if stat(path, &current) == 0, UInt64(current.st_dev) != device || UInt64(current.st_ino) != inode {
            if let opened = try? Self.open(path) {
                close(fd)
                fd = opened.fd
                device = opened.device
                inode = opened.inode
                offset = 0
                // A line the old file never finished is not a record.
                partial = []
                update.rotated = true
                try readAppended(into: &update.lines)
            }
        }
        return update
    }

    private func readAppended(into lines: inout [[UInt8]]) throws(SystemError) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while total < Self.sliceLimit {
            let n = try readAt(&chunk, length: chunk.count, offset: offset)
            if n == 0 { return }
            offset += n
            total += n
            var start = 0
            while let newline = chunk[start..<n].firstIndex(of: 0x0A) {
                if partial.isEmpty {
                    lines.append(Array(chunk[start..<newline]))
                } else {
                    partial.append(contentsOf: chunk[start..<newline])
                    lines.append(partial)
                    partial = []
                }
                start = newline + 1
            }
            partial.append(contentsOf: chunk[start..<n])
        }
    }

    private func readAt(_ buffer: inout [UInt8], length: Int, offset: Int) throws(SystemError) -> Int {
        let fd = self.fd
        return try retryingEINTR("read \(path)") {
            buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(offset)) }
        }
    }

    private static func open(_ path: String) throws(SystemError) -> (fd: Int32, device: UInt64, inode: UInt64, size: Int) {
        let fd = try retryingEINTR("open \(path)") { Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw SystemError("stat \(path)", errno: code)
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            close(fd)
            throw SystemError("open \(path)", errno: EISDIR)
        }
        return (fd, UInt64(info.st_dev), UInt64(info.st_ino), Int(info.st_size))
    }
}
