#if canImport(Glibc)
import Glibc
#endif
import LocationClient
import LocationValues
import LocationSystem

/// Standard output and error, written with `write(2)` line by line, so
/// `watch` and `tail -f` lines appear at once even in a pipe.
enum Console {
    /// Writes `text` to standard output, every control character but its line breaks escaped
    /// (`PeerText.printable`): nothing a daemon's reply holds can drive the terminal.
    static func out(_ text: String) {
        write(1, Array(PeerText.printable(text).utf8))
    }

    /// Writes bytes to standard output.
    static func out(bytes: [UInt8]) {
        write(1, bytes)
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) {
        write(2, Array(PeerText.printable(text).utf8))
    }

    /// Returns to the start of standard error's line and clears it (`\r`, ESC `[K`): the one control
    /// sequence locationctl writes itself, for a progress line rewritten in place.
    static func eraseErrorLine() {
        write(2, Array("\r\u{1B}[K".utf8))
    }

    /// Writes bytes to a descriptor, whole. A reader that went away ends the
    /// program quietly, as SIGPIPE does for other tools.
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        do {
            try DescriptorIO.writeAll(fd, bytes)
        } catch {
            exit(error.errno == EPIPE ? 0 : 1)
        }
    }
}
