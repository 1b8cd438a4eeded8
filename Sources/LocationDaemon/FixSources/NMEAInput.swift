#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import CSupport

/// An opened NMEA input: a serial device (termios raw at the configured
/// baud), a FIFO, or a plain file. Owns its file descriptor.
struct NMEAInput: ~Copyable {
    /// What kind of file the path turned out to be.
    enum Kind: Sendable, Equatable {
        /// A terminal (serial port, USB ACM, pty): set raw at the baud rate.
        case terminal
        /// A character device that is not a terminal: read as is.
        case device
        /// A named pipe: a writer may come and go.
        case fifo
        /// A regular file: read to the end, then followed as it grows.
        case file
    }

    /// The open descriptor (non-blocking, close-on-exec).
    let fd: Int32
    /// What it is.
    let kind: Kind
    /// Device and inode when opened, to notice a replaced file.
    let identity: (device: UInt64, inode: UInt64)

    /// Opens `path`; a terminal is set raw at `baud`.
    init(path: String, baud: Int) throws(SystemError) {
        let fd = try retryingEINTR("open \(path)") { open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let error = SystemError("stat \(path)", errno: errno)
            close(fd)
            throw error
        }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFIFO: kind = .fifo
        case S_IFREG: kind = .file
        case S_IFCHR: kind = isatty(fd) == 1 ? .terminal : .device
        default:
            close(fd)
            throw SystemError("open \(path) (not a device, FIFO or file)", errno: EINVAL)
        }
        if kind == .terminal, csupport_tty_make_raw(fd, Int32(clamping: baud)) != 0 {
            let error = SystemError("set \(path) raw at \(baud) baud", errno: errno)
            close(fd)
            throw error
        }
        self.fd = fd
        self.kind = kind
        self.identity = (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    deinit { close(fd) }

    /// Reads what is there into `buffer`: the byte count, 0 at end of file
    /// (or a hung-up terminal), nil when nothing is ready yet.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN: return nil
            default: throw SystemError("read", errno: errno)
            }
        }
    }

    /// For a file: its size now, and whether the path now names another file
    /// (rotated or replaced).
    func fileState(path: String) -> (size: Int64, replaced: Bool) {
        var mine = stat(), named = stat()
        let size = fstat(fd, &mine) == 0 ? Int64(mine.st_size) : 0
        let replaced = stat(path, &named) != 0
            || UInt64(named.st_dev) != identity.device || UInt64(named.st_ino) != identity.inode
        return (size, replaced)
    }

    /// The read offset.
    var offset: Int64 { Int64(lseek(fd, 0, SEEK_CUR)) }

    /// Goes back to the start (a file that was truncated).
    func rewind() { lseek(fd, 0, SEEK_SET) }
}
