#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationSystem

/// Which file a log is: its device and inode. A rename (logrotate) keeps it;
/// a new file at the same path has another.
struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `st_dev`.
    var device: UInt64
    /// `st_ino`.
    var inode: UInt64

    /// The identity `fstat`/`stat` reports.
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// `device 2049 inode 1234`.
    var description: String { "device \(device) inode \(inode)" }
}

/// How far a client's log has been published: every complete line of the
/// file `identity` before byte `offset` was acknowledged by the broker
/// (or, with QoS 0, sent). `head` is a hash of the file's first line: an
/// inode number freed by a deleted log can be given to the next new file,
/// and the first record (its time) tells the two apart. Kept in `state_dir/mqtt-NAME.cursor` as one JSON
/// object, replaced atomically, so a crash leaves the previous cursor or the
/// new one, never a torn one:
///
/// ```
/// {"log":"/var/log/locationd/fleet.jsonl","device":"2049","inode":"131077","head":"9d3c0f1e22b5a871","offset":48213}
/// ```
///
/// Device and inode are strings: both are 64-bit and JSON numbers are exact
/// only to 2^53.
struct PublishCursor: Sendable, Hashable {
    /// The log's path when the cursor was written (for people; the identity decides).
    var log: String
    /// The file the offset is in.
    var identity: FileIdentity
    /// FNV-1a of the file's first line (`LogQueue.headHash`).
    var head: UInt64
    /// Bytes of that file published, always at the end of a line.
    var offset: UInt64

    /// The cursor file's name for a client: `mqtt-NAME.cursor`.
    static func fileName(client: String) -> String { "mqtt-\(client).cursor" }

    /// The cursor's bytes, ending in a newline.
    var bytes: [UInt8] {
        let object = JSONValue.object([
            ("log", .string(log)), ("device", .string(String(identity.device))),
            ("inode", .string(String(identity.inode))), ("head", .string(String(head, radix: 16))),
            ("offset", .number(Double(offset))),
        ])
        return Array((object.serialized + "\n").utf8)
    }

    /// Reads what `bytes` writes; `nil` for anything else.
    init?(bytes: [UInt8]) {
        guard let value = try? JSONValue.parse(bytes), let log = value["log"]?.stringValue,
            let device = value["device"]?.stringValue.flatMap({ UInt64($0) }),
            let inode = value["inode"]?.stringValue.flatMap({ UInt64($0) }),
            let head = value["head"]?.stringValue.flatMap({ UInt64($0, radix: 16) }),
            let number = value["offset"]?.numberValue, number >= 0, number < 9.0e15, number == number.rounded()
        else { return nil }
        self.init(log: log, identity: FileIdentity(device: device, inode: inode), head: head, offset: UInt64(number))
    }

    init(log: String, identity: FileIdentity, head: UInt64, offset: UInt64) {
        self.log = log
        self.identity = identity
        self.head = head
        self.offset = offset
    }
}

/// Loads and saves one client's `PublishCursor` (through `AtomicFileWriter`,
/// as `state.json` is saved).
struct PublishCursorStore: Sendable {
    /// The cursor file.
    let path: String

    /// What `load` found.
    enum Loaded: Sendable, Hashable {
        /// No cursor yet: the log is published from its start.
        case missing
        /// The cursor.
        case cursor(PublishCursor)
        /// A file that is no cursor (renamed aside to `path.corrupt`); the log is published from its start.
        case unreadable(String)
    }

    /// Reads the cursor (through `SafeFile`: never through a symbolic link, only
    /// a regular file of the daemon's own user); a file that is no cursor is
    /// renamed aside and said why.
    func load() -> Loaded {
        let fd: Int32
        do {
            fd = try SafeFile.open(path, flags: O_RDONLY, create: false).fd
        } catch {
            return error.errno == ENOENT ? .missing : .unreadable(error.description)
        }
        let bytes = try? DescriptorIO.readAll(fd, limit: 4096, name: path)
        close(fd)
        if let bytes, let cursor = PublishCursor(bytes: bytes) { return .cursor(cursor) }
        rename(path, path + ".corrupt")
        return .unreadable("\(path) is not a cursor (set aside as \(path).corrupt)")
    }

    /// Replaces the cursor file whole.
    func save(_ cursor: PublishCursor) throws(SystemError) {
        _ = try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: 0o750)
        let file = try AtomicFileWriter(path: path, mode: 0o640)
        try file.write(cursor.bytes)
        if let error = try file.commit() { throw error }
    }
}
