#if canImport(Glibc)
import Glibc
#endif

/// What a connected socket says about its peer, without reading or waiting.
public enum SocketState {
    /// Whether the peer has closed (or shut down its sending side of) the
    /// connection on `fd`: poll(2) reports POLLRDHUP or POLLHUP, even while
    /// what it sent before is still there to read.
    public static func peerClosed(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN) | readHangUp, revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & (readHangUp | Int16(POLLHUP)) != 0
    }

    /// POLLRDHUP (Linux's 0x2000), which Glibc's module leaves out without _GNU_SOURCE.
    private static let readHangUp: Int16 = 0x2000
}
