/// A command line that cannot be run: what was wrong, and the synopsis of
/// the command it was meant for. Exit status 2.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The program: `locationctl` or `locationd`.
    public var program: String
    /// What was wrong, e.g. `unknown status "whileusing" (did you mean "while-using"?)`.
    public var message: String
    /// The command it concerns, if one was recognised.
    public var command: String?
    /// The synopsis lines to show (the command's, or the program's overview).
    public var synopsis: [String]

    /// An error from its parts.
    public init(program: String, message: String, command: String?, synopsis: [String]) {
        self.program = program
        self.message = message
        self.command = command
        self.synopsis = synopsis
    }

    /// The exit status for usage errors.
    public var exitCode: ExitCode { .usage }

    /// What to print on stderr: the message, the synopsis, where to read more.
    public var description: String {
        var lines = ["\(program): \(message)"]
        for (i, line) in synopsis.enumerated() { lines.append((i == 0 ? "usage: " : "       ") + line) }
        if let command {
            lines.append("Run '\(program) help \(command)' for details.")
        } else {
            lines.append("Run '\(program) --help' for the list of commands.")
        }
        return lines.joined(separator: "\n")
    }
}
