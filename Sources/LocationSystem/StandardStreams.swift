#if canImport(Glibc)
import Glibc
#endif

/// Whole writes to stdout and stderr for the command-line tools (no stdio
/// buffering to flush before exiting).
public enum StandardStreams {
    /// Writes all of `text` to file descriptor `fd` (1 or 2), retrying short
    /// writes; gives up quietly when the reader has gone (EPIPE).
    public static func write(_ text: String, to fd: Int32) {
        try? DescriptorIO.writeAll(fd, Array(text.utf8))
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}
