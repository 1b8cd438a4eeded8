/// Why a child process could not be started, or did not finish in time.
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, with the command.
    public var description: String

    /// An error with its own sentence.
    public init(_ description: String) {
        self.description = description
    }
}
