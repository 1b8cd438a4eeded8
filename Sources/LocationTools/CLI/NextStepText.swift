import LocationProtocol

/// How `locationctl` names a next step the daemon suggests (a `Command`, e.g. a status's
/// `suggestion`) to whoever reads it: the command line as the command table takes it, and
/// whether the reader may run it or must ask for it (an app never sends the user's side).
public enum NextStepText {
    /// The arguments after `locationctl` for `command`: its word from the command table, then
    /// its fields as that command's arguments and options.
    public static func arguments(_ command: Command) -> [String] {
        guard CtlCommands.command(command.name) != nil else {
            preconditionFailure("the command table has no \(command.name), a word of the protocol")
        }
        return command.commandLineArguments
    }

    /// `locationctl authorize logger while-using`.
    public static func commandLine(_ command: Command) -> String {
        Command.program + " " + arguments(command).joined(separator: " ")
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
        // An app's one-shot `session begin` would hold nothing: it is told the form that holds.
        if case .session(let client, true) = command, let reader, !reader.isOperator, reader.apps.contains(client) {
            return "→ run: \(holdingForms(client))"
        }
        let text = commandLine(command)
        if mayRun(command, reader: reader) { return "→ run: \(text)" }
        return "→ \(whoMay(command)): \(text)"
    }

    /// The forms that hold `client`'s session for as long as they run: `locationctl session
    /// survey -- COMMAND... (or: locationctl watch survey --in-use)`.
    public static func holdingForms(_ client: String) -> String {
        "\(CommandWord.session.commandLine(client, "--", "COMMAND...")) (or: \(CommandWord.watch.commandLine(client, "--in-use")))"
    }

    /// Why `session CLIENT begin` is not sent for `reader`, naming the forms that hold the
    /// session; `nil` for the operator (whose session lasts until `end`) and for anyone else
    /// (whom the daemon refuses, saying who may).
    public static func oneShotSessionRefusal(client: String, reader: ControlRole?) -> String? {
        guard let reader, !reader.isOperator, reader.apps.contains(client) else { return nil }
        return "locationctl: session \(client) begin would hold nothing: an app's session lasts while the connection "
            + "that began it lives, and locationctl's ends as it exits\n"
            + "→ run: \(holdingForms(client))\n"
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
