import LocationProtocol
import LocationValues

/// What `locationctl` prints for a reply, and its exit status: for a
/// command, what happened; for an error, what was wrong and what to do next.
public enum ReplyRenderer {
    /// The text for stdout (success) or stderr (error), ending in a newline,
    /// and the exit status.
    public static func render(
        _ reply: ControlReply, for operation: ControlRequest.Operation
    ) -> (text: String, exitCode: ExitCode, isError: Bool) {
        if let error = reply.error {
            return (renderError(code: error.code, message: error.message, for: operation), .refused, true)
        }
        do {
            switch operation {
            case .hello:
                let hello = try reply.hello()
                return ("locationd \(hello.version), protocol \(hello.protocolVersion)\n", .ok, false)
            case .status:
                return (StatusRenderer.render(try reply.statusReport()), .ok, false)
            case .prompts:
                return (StatusRenderer.renderPrompts(try reply.prompts()), .ok, false)
            case .watch(let client):
                return ("watching \(client ?? "every client") (Ctrl-C to stop)\n", .ok, false)
            case .report:
                return (ReportRenderer.render(reply["clients"]), .ok, false)
            case .command:
                let text = renderOutcome(try reply.commandOutcome())
                // In force but not kept across a restart: a script that revokes must hear of it.
                guard let warning = reply.saveWarning else { return (text, .ok, false) }
                return (text + "locationctl: warning: \(warning)\n", .refused, false)
            }
        } catch {
            return ("locationctl: \(error)\nIs locationctl the same version as the daemon? (locationctl --version)\n", .refused, true)
        }
    }

    /// What a successful command did; an opened prompt with its answers.
    public static func renderOutcome(_ outcome: CommandOutcome) -> String {
        var lines: [String] = []
        if !outcome.message.isEmpty { lines.append(outcome.message) }
        if let prompt = outcome.prompt {
            lines.append(contentsOf: StatusRenderer.promptLines(prompt))
        }
        if lines.isEmpty { lines.append(outcome.changed ? "done" : "nothing changed") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `locationctl: message` and, where one helps, the next step.
    public static func renderError(code: String, message: String, for operation: ControlRequest.Operation) -> String {
        var lines = ["locationctl: \(message)"]
        if let hint = hint(code: code, operation: operation) { lines.append(hint) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The next step for an error code, if there is a useful one.
    public static func hint(code: String, operation: ControlRequest.Operation) -> String? {
        let client = operation.client ?? "CLIENT"
        switch code {
        case ProtocolError.Code.notAuthorized.rawValue:
            return "Changing state needs root or membership of the daemon's socket group; try sudo, or ask an administrator to add you to it."
        case ProtocolError.Code.busy.rawValue:
            return "The daemon has as many connections as it accepts; try again in a moment."
        case CommandError.Code.unknownClient.rawValue:
            return "See the configured clients with: \(CommandWord.status.commandLine())"
        case CommandError.Code.missingUsageDescription.rawValue:
            return "Add usage = … (and usage_always = … for always) to [client.\(client)] in locationd.conf, then reload the daemon (systemctl reload locationd)."
        case CommandError.Code.restricted.rawValue:
            return "An administrator locked this client ([policy] restricted in locationd.conf); only they can change it."
        case CommandError.Code.denied.rawValue:
            if case .command(.share) = operation {
                return "→ run: \(NextStepText.commandLine(.authorize(client: client, status: .ask)))   (or while-using), as the user would in Settings"
            }
            return "→ run: \(NextStepText.commandLine(.authorize(client: client, status: .whileUsing)))   "
                + "(or check: \(NextStepText.commandLine(.services(on: true))))"
        case CommandError.Code.noPrompt.rawValue:
            return "See the pending prompts with: \(CommandWord.prompts.commandLine())"
        case CommandError.Code.invalidAnswer.rawValue:
            return "See which answers the pending prompt accepts with: \(CommandWord.prompts.commandLine())"
        case CommandError.Code.unknownPurpose.rawValue:
            return "Use a purpose key from purpose.KEY = … in [client.\(client)] of locationd.conf."
        case CommandError.Code.notInUse.rawValue:
            return "→ run: \(NextStepText.commandLine(.session(client: client, inUse: true)))   "
                + "(its app holds it with: \(NextStepText.holdingForms(client)))"
        case ProtocolError.Code.unknownCommand.rawValue, ProtocolError.Code.badRequest.rawValue,
            ProtocolError.Code.invalidArgument.rawValue:
            return "Is locationctl the same version as the daemon? (locationctl --version)"
        default:
            return nil
        }
    }
}
