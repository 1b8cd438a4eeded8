#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which operation, on what, and the `errno` value.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, e.g. `open /var/log/locationd/logger.jsonl`.
    public var operation: String
    /// The `errno` value.
    public var errno: Int32
    /// What was found, when that says more than `errno`'s text (e.g. "it is a symbolic link, …").
    public var explanation: String?

    /// An error from its parts.
    public init(_ operation: String, errno: Int32, explanation: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.explanation = explanation
    }

    /// `open /x: No such file or directory`, or `refused /x: it is a symbolic link, …`.
    public var description: String {
        "\(operation): \(explanation ?? String(cString: strerror(errno)))"
    }
}

/// Calls `body` until it does not fail with `EINTR`; a result of -1 becomes a
/// `SystemError` carrying `errno`.
@discardableResult
public func retryingEINTR<T: FixedWidthInteger>(
    _ operation: @autoclosure () -> String, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result == -1 {
            let e = errno
            if e == EINTR { continue }
            throw SystemError(operation(), errno: e)
        }
        return result
    }
}
