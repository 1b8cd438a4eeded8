#if canImport(Glibc)
import Glibc
#endif
import CSupport

/// The read and write loops every part shares: whole writes that survive
/// `EINTR` and short writes, reads to the end of a descriptor (in pieces, or
/// whole up to a limit), reads backwards from the end of a file, and the
/// non-blocking, close-on-exec pipe that wakes a `poll(2)`.
public enum DescriptorIO {
    /// A write that stopped part-way: why, and how much went before it.
    public struct WriteFailure: Error, Sendable, Hashable {
        /// The `errno` value (`EIO` for a write that took nothing).
        public var errno: Int32
        /// Bytes written before the failure.
        public var written: Int
    }

    /// Bytes one read asks for, where the caller does not say.
    public static let chunkSize = 65_536

    // MARK: - Writing

    /// Writes all of `bytes` to `fd`, retrying `EINTR` and short writes. A
    /// write that takes nothing counts as `EIO`, so a full device never spins.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(WriteFailure) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n > 0 {
                offset += n
                continue
            }
            let code = n == 0 ? EIO : errno
            if code == EINTR { continue }
            throw WriteFailure(errno: code, written: offset)
        }
    }

    /// Writes all of `bytes` to `fd` (see `writeAll(_:_:)` for a buffer).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(WriteFailure) {
        try writeAll(fd, bytes[...])
    }

    /// Writes all of `bytes` to `fd`: part of a buffer, written from where it is.
    public static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(WriteFailure) {
        // withUnsafeBytes rethrows untyped: carry the failure out as a value.
        let failure = bytes.withUnsafeBytes { raw -> WriteFailure? in
            do throws(WriteFailure) {
                try writeAll(fd, raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    // MARK: - Reading

    /// One `read(2)` into `buffer`, retrying `EINTR`; 0 at the end.
    public static func read(_ fd: Int32, into buffer: inout [UInt8], name: @autoclosure () -> String) throws(SystemError) -> Int {
        let count = buffer.count
        return try retryingEINTR("read \(name())") { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) } }
    }

    /// Reads `fd` to its end in pieces of at most `chunkSize` bytes, handing
    /// each to `body` as it comes. Returns the number of bytes read.
    @discardableResult
    public static func readChunks(
        _ fd: Int32, chunkSize: Int = DescriptorIO.chunkSize, name: @autoclosure () -> String,
        _ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void
    ) throws(SystemError) -> Int {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var total = 0
        while true {
            let n = try read(fd, into: &chunk, name: name())
            if n == 0 { return total }
            total += n
            let failure = chunk.withUnsafeBytes { raw -> SystemError? in
                do throws(SystemError) {
                    try body(UnsafeRawBufferPointer(rebasing: raw[0..<n]))
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
    }

    /// Reads `fd` to its end, but never more than a piece beyond `limit`
    /// bytes: `nil` when there are more than `limit` (the caller says the
    /// file is too large; the size `fstat` reports is not trusted).
    public static func readAll(_ fd: Int32, limit: Int, name: @autoclosure () -> String) throws(SystemError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while bytes.count <= limit {
            let n = try read(fd, into: &chunk, name: name())
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes.count <= limit ? bytes : nil
    }

    /// Reads the file `fd` backwards from offset `end`, a piece of at most
    /// `chunkSize` bytes at a time, handing each piece and its offset in the
    /// file to `body` until `body` returns `false` or the start is reached.
    /// A piece that cannot be read whole is an `EIO` error (the file shrank).
    public static func readBackwards(
        _ fd: Int32, from end: Int, name: @autoclosure () -> String,
        _ body: (_ piece: ArraySlice<UInt8>, _ offset: Int) throws(SystemError) -> Bool
    ) throws(SystemError) {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var end = end
        while end > 0 {
            let start = max(0, end - chunk.count)
            let count = end - start
            let n = try retryingEINTR("read \(name())") {
                chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(start)) }
            }
            guard n == count else { throw SystemError("read \(name())", errno: EIO) }
            guard try body(chunk[0..<count], start) else { return }
            end = start
        }
    }

    // MARK: - Pipes

    /// A pipe with both ends non-blocking and close-on-exec (a spawned helper
    /// cannot keep it; writing a wake-up byte never stalls), for waking a
    /// thread blocked in `poll(2)`.
    public static func makePipe(_ purpose: @autoclosure () -> String) throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        // pipe2(O_NONBLOCK | O_CLOEXEC), which Swift's Glibc module does not expose: no window in which a fork inherits it.
        try retryingEINTR("pipe for \(purpose())") { csupport_signal_pipe(&fds) }
        return (fds[0], fds[1])
    }
}
