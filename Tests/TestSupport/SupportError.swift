#if canImport(Glibc)
import Glibc
#endif

/// Why a file, socket or thread the tests asked for could not be had.
public struct SupportError: Error, CustomStringConvertible, Sendable {
    /// What failed and why, in a sentence.
    public var description: String

    /// An error with its own sentence.
    public init(_ description: String) {
        self.description = description
    }

    /// `what` failed with `errno` (the current one unless given).
    public static func system(_ what: String, errno code: Int32 = errno) -> SupportError {
        SupportError("\(what): \(String(cString: strerror(code)))")
    }
}
