#if canImport(Glibc)
import Glibc
#endif
import LocationCore

/// A client's log read as a queue, from a `PublishCursor` on: complete lines
/// in file order, across logrotate. Only complete lines (ending in `\n`) are
/// ever returned, so a line the writer is still appending, or a torn tail it
/// cuts off at start-up, is never published.
///
/// Rotation. The queue keeps its descriptor on the file it reads, so after
/// logrotate renames the log to `log.1` it goes on reading that file. When it
/// reaches the end of it and the file at the log's path is another one that
/// already holds data (the daemon writes to the new file only after SIGHUP
/// reopened it, so after that the renamed file never grows again), it reads
/// the old file to its end once more and moves to the new file at offset 0.
/// The old descriptor is kept until the cursor has left it (`release`), so a
/// rewind after a lost connection can go back into it.
///
/// At start, a cursor naming a file other than the one at the log's path is
/// looked for at `log.1` (logrotate's name for the newest rotated file); found,
/// it is finished first. Not found (deleted, or compressed by a second
/// rotation), the lines of it not yet published are lost to the broker —
/// said once at warning level and counted (`lostFiles`) — and the new log is
/// published from its start. A file at the same identity that became shorter
/// than the cursor (truncated, `copytruncate`) is published again from 0.
///
/// Counting: `unread` is the number of complete lines after the read position
/// in the file being read, plus those in the file at the path when that is a
/// newer one; counted incrementally as files grow (each byte is scanned once).
///
/// Not thread-safe: the publisher's thread owns it.
final class LogQueue {
    /// One complete line.
    struct Record {
        /// The line without its newline.
        var line: [UInt8]
        /// The file it is in.
        var identity: FileIdentity
        /// Its file's first-line hash (`PublishCursor.head`).
        var head: UInt64
        /// The offset just past its newline: the cursor once it is acknowledged.
        var end: UInt64
    }

    private final class OpenFile {
        let fd: Int32
        let identity: FileIdentity
        /// Where it was opened (for messages).
        let path: String
        /// Scanned for newlines up to here.
        var countedTo: UInt64 = 0
        /// Complete lines in [read position, countedTo).
        var counted = 0
        private var head: UInt64?

        /// FNV-1a of the first line (at most 4 KiB of it); `nil` while it is incomplete.
        func headHash() -> UInt64? {
            if let head { return head }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let got = pread(fd, &bytes, bytes.count, 0)
            guard got > 0 else { return nil }
            guard let end = bytes[..<got].firstIndex(of: 0x0A) ?? (got == bytes.count ? got : nil) else { return nil }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes[..<end] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            head = hash
            return hash
        }

        /// Whether this is the file `cursor` was written for.
        func matches(_ cursor: PublishCursor) -> Bool {
            identity == cursor.identity && headHash() == cursor.head
        }

        init(fd: Int32, identity: FileIdentity, path: String) {
            self.fd = fd
            self.identity = identity
            self.path = path
        }

        deinit { close(fd) }
    }

    /// The log's path.
    let path: String
    /// logrotate's name for the newest rotated file: `path.1`.
    var rotatedPath: String { path + ".1" }
    /// Rotated files that were gone before they were fully published.
    private(set) var lostFiles = 0
    /// Lines skipped because they are longer than `maximumLine`.
    private(set) var oversized = 0

    /// Longest line returned; a longer one is skipped (a record is about 200 bytes).
    static let maximumLine = 64 * 1024
    private static let chunk = 64 * 1024

    private var file: OpenFile?
    /// Files read before `file` whose lines may still be unacknowledged, oldest first.
    private var retired: [OpenFile] = []
    /// A newer file at the path while `file` is a rotated one (counted, not read yet).
    private var newer: OpenFile?
    /// Offset in `file` of `buffer[0]`.
    private var offset: UInt64 = 0
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: LogQueue.chunk)
    /// Skipping the rest of an oversized line.
    private var skipping = false

    init(path: String) {
        self.path = path
    }

    /// Positions the queue at `cursor` (`nil`: the log's start). Returns what
    /// people should know (a lost rotated file, a truncated log).
    func start(at cursor: PublishCursor?) -> [String] {
        var notes: [String] = []
        retired.removeAll()
        newer = nil
        file = nil
        guard let cursor else {
            open(Self.openFile(path), at: 0)
            return notes
        }
        let current = Self.openFile(path)
        if let current, current.matches(cursor) {
            open(current, at: cursor.offset, notes: &notes)
            return notes
        }
        if let rotated = Self.openFile(rotatedPath), rotated.matches(cursor) {
            open(rotated, at: cursor.offset, notes: &notes)
            newer = current
            return notes
        }
        lostFiles += 1
        notes.append(
            "the file \(cursor.log) was published up to byte \(cursor.offset) before it was rotated, and it is no longer "
                + "at \(rotatedPath): its records after that byte were not published; continuing with \(path) from its start")
        open(current, at: 0)
        return notes
    }

    /// Goes back to `cursor` (a lost connection: every record after it is sent again).
    func rewind(to cursor: PublishCursor?) {
        guard let cursor else {
            // Nothing acknowledged yet: back to the start of the oldest file held.
            if let first = retired.first ?? file { reposition(first, at: 0) }
            return
        }
        if let held = ([file].compactMap { $0 } + retired).first(where: { $0.identity == cursor.identity }) {
            reposition(held, at: cursor.offset)
        }
    }

    /// The cursor has moved into `identity`: files before it are let go.
    func release(before identity: FileIdentity) {
        guard let index = retired.firstIndex(where: { $0.identity == identity }) else {
            if file?.identity == identity { retired.removeAll() }
            return
        }
        retired.removeFirst(index)
    }

    /// The next complete line, or `nil` when there is none yet.
    func next() -> Record? {
        while true {
            guard let file else {
                if let opened = Self.openFile(path) { open(opened, at: 0) } else { return nil }
                continue
            }
            if let newline = buffer.firstIndex(of: 0x0A) {
                let end = offset + UInt64(newline + 1)
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                offset = end
                consumed(file, through: end)
                if skipping {
                    skipping = false
                    continue
                }
                return Record(line: line, identity: file.identity, head: file.headHash() ?? 0, end: end)
            }
            if buffer.count > Self.maximumLine {
                if !skipping { oversized += 1 }
                skipping = true
                offset += UInt64(buffer.count)
                buffer.removeAll(keepingCapacity: true)
            }
            let got = pread(file.fd, &scratch, Self.chunk, off_t(offset + UInt64(buffer.count)))
            if got > 0 {
                buffer.append(contentsOf: scratch[..<got])
                continue
            }
            if got < 0 && errno == EINTR { continue }
            // At the end of this file: has the log moved on?
            guard moveOnIfRotated(from: file) else { return nil }
        }
    }

    /// Complete lines not yet returned by `next` (see "Counting" above).
    func unread() -> Int {
        guard let file else { return 0 }
        count(file, from: offset)
        var total = file.counted
        if let newer {
            count(newer, from: 0)
            total += newer.counted
        }
        return total
    }

    // MARK: - Files

    private static func openFile(_ path: String) -> OpenFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return OpenFile(fd: fd, identity: FileIdentity(info), path: path)
    }

    private func open(_ opened: OpenFile?, at position: UInt64, notes: inout [String]) {
        guard let opened else { return }
        var info = stat()
        var start = position
        if fstat(opened.fd, &info) == 0, UInt64(info.st_size) < position {
            notes.append(
                "\(opened.path) is shorter (\(info.st_size) bytes) than the \(position) bytes already published: "
                    + "it was truncated; publishing it again from its start")
            start = 0
        }
        open(opened, at: start)
    }

    private func open(_ opened: OpenFile?, at position: UInt64) {
        file = opened
        offset = position
        buffer.removeAll(keepingCapacity: true)
        skipping = false
        if let opened {
            opened.countedTo = position
            opened.counted = 0
        }
    }

    private func reposition(_ target: OpenFile, at position: UInt64) {
        if target !== file {
            // Back into a file already finished: it and every later one are read again.
            var chain = retired + [file].compactMap { $0 }
            guard let index = chain.firstIndex(where: { $0 === target }) else { return }
            let later = chain[(index + 1)...]
            chain.removeSubrange(index...)
            retired = chain
            newer = later.last
            for held in later {
                held.countedTo = 0
                held.counted = 0
            }
        }
        open(target, at: position)
    }

    /// At the end of `current`: when the path now holds a newer file with
    /// data, finish `current` (one more read) and move to the newer file.
    /// Returns whether there may be more to read now. A truncated file is
    /// read again from 0.
    private func moveOnIfRotated(from current: OpenFile) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let identity = FileIdentity(info)
        if identity == current.identity {
            if UInt64(info.st_size) < offset + UInt64(buffer.count) {
                Diagnostics.mqtt.warning(
                    "\(path) became shorter than what was already read for publishing (truncated?): publishing it again from its start")
                open(current, at: 0)
                return true
            }
            return false
        }
        guard info.st_size > 0 else { return false }
        // The writer has moved on: whatever it wrote to `current` is there now.
        var more = [UInt8](repeating: 0, count: 1)
        if pread(current.fd, &more, 1, off_t(offset + UInt64(buffer.count))) > 0 { return true }
        let next: OpenFile
        if let newer, newer.identity == identity {
            next = newer
        } else if let opened = Self.openFile(path), opened.identity == identity {
            next = opened
        } else {
            return false
        }
        if !buffer.isEmpty {
            Diagnostics.mqtt.warning(
                "\(current.path) ends in \(buffer.count) bytes without a newline (a torn last line); they are not published")
        }
        retired.append(current)
        newer = nil
        let counted = next.countedTo
        let lines = next.counted
        open(next, at: 0)
        next.countedTo = counted
        next.counted = lines
        Diagnostics.mqtt.info("publishing moved on from the rotated log to the new \(path)")
        return true
    }

    /// A line ending at `end` was returned: it leaves the count.
    private func consumed(_ file: OpenFile, through end: UInt64) {
        if end <= file.countedTo {
            file.counted = max(0, file.counted - 1)
        } else {
            file.countedTo = end
            file.counted = 0
        }
    }

    /// Scans `file` for newlines from where it was counted to its end.
    private func count(_ file: OpenFile, from position: UInt64) {
        if file.countedTo < position {
            file.countedTo = position
            file.counted = 0
        }
        while true {
            let got = pread(file.fd, &scratch, Self.chunk, off_t(file.countedTo))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return }
            var lines = 0
            var last = -1
            for i in 0..<got where scratch[i] == 0x0A {
                lines += 1
                last = i
            }
            // Count up to the last newline only, so a partial line is counted once, when it is complete.
            guard last >= 0 else {
                if got < Self.chunk { return }
                file.countedTo += UInt64(got)  // a very long line: keep going
                continue
            }
            file.counted += lines
            file.countedTo += UInt64(last + 1)
            if got < Self.chunk { return }
        }
    }
}
