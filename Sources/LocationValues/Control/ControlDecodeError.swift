/// A line from the daemon that `locationctl` could not read: a version
/// mismatch or a bug, never the user's doing.
public struct ControlDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the line.
    public var message: String

    /// An error from its sentence.
    public init(_ message: String) { self.message = message }

    /// `unexpected message from locationd: …`.
    public var description: String { "unexpected message from locationd: \(message)" }
}

extension FieldReader.FieldError {
    /// The same sentence as a decode error.
    package var decodeError: ControlDecodeError { ControlDecodeError(message) }
}
