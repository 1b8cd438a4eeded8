#if canImport(Glibc)
import Glibc
#endif

/// Standard output and error, written with `write(2)` line by line, so
/// `watch` and `tail -f` lines appear at once even in a pipe.
enum Console {
    /// Writes `text` to standard output.
    static func out(_ text: String) {
        write(1, Array(text.utf8))
    }

    /// Writes bytes to standard output.
    static func out(bytes: [UInt8]) {
        write(1, bytes)
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) {
        write(2, Array(text.utf8))
    }

    /// Writes bytes to a descriptor, whole. A reader that went away ends the
    /// program quietly, as SIGPIPE does for other tools.
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(fd, base + offset, raw.count - offset)
            }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                exit(errno == EPIPE ? 0 : 1)
            }
        }
    }
}
