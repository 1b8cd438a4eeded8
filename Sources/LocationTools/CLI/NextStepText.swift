import LocationCore

/// How `locationctl` names a next step the daemon suggests (a `Command`, e.g. a status's
/// `suggestion`) to whoever reads it: the command line as the command table takes it, and
/// whether the reader may run it or must ask for it (an app never sends the user's side).
public enum NextStepText {
    /// The arguments after `locationctl` for `command`: its word from the command table, then
    /// its fields as that command's arguments and options.
    public static func arguments(_ command: Command) -> [String] {
        guard let entry = CtlCommands.command(command.name) else {
            preconditionFailure("the command table has no \(command.name), a word of the protocol")
        }
        var arguments = [entry.name]
        for (field, value) in zip(command.word.fields, command.words.dropFirst()) {
            switch field {
            case "precise": if value == "false" { arguments.append("--approximate") }
            case "timeout": arguments += ["--timeout", value]
            default: arguments.append(value)
            }
        }
        return arguments
    }

    /// `locationctl authorize logger while-using`.
    public static func commandLine(_ command: Command) -> String {
        "locationctl " + arguments(command).joined(separator: " ")
    }

    /// Whether `reader` may send `command` itself (`nil`: the daemon did not say who reads).
    public static func mayRun(_ command: Command, reader: ControlRole?) -> Bool {
        guard let reader else { return true }
        return reader.permits(.command(command))
    }

    /// The line under a client in `status`: `→ run: locationctl start logger` for a reader who
    /// may send it, otherwise who to ask: `→ ask the operator (root or the socket group) to
    /// run: locationctl authorize logger while-using`.
    public static func line(_ command: Command, reader: ControlRole?) -> String {
        let text = commandLine(command)
        if mayRun(command, reader: reader) { return "→ run: \(text)" }
        return "→ \(whoMay(command)): \(text)"
    }

    /// Who may send `command`, for a reader who may not: `ask the operator (root or the socket
    /// group) to run`, or for the app side `ask logger's app or the operator to run`.
    static func whoMay(_ command: Command) -> String {
        switch command.word.side {
        case .app: "ask \(command.client ?? "the client")'s app or the operator (root or the socket group) to run"
        case .user, .read: "ask the operator (root or the socket group) to run"
        }
    }
}
