import LocationProtocol
import LocationValues

/// The three sides (docs/authorization.md §13) as commands, and every row of the §3 transition table.
/// Each handler changes state and returns the reply; the events that follow
/// from the change (authorization, closed prompts) come from `finish`.
extension Engine {
    typealias Outcome = Result<CommandOutcome, CommandError>

    mutating func execute(_ command: Command, now: Double, effects: inout EffectList) -> Outcome {
        if case .services(let on) = command { return setServices(on) }
        guard let name = command.client, let i = index[name] else {
            return .failure(unknownClient(command.client ?? ""))
        }
        switch command {
        case .services:
            preconditionFailure("services is handled before the client lookup")
        case .authorize(_, let status): return authorize(i, status)
        case .accuracy(_, let full): return setAccuracy(i, full: full)
        case .request(_, let kind): return request(i, kind, effects: &effects)
        case .answer(_, let reply, let precise): return answerPrompt(i, reply, precise: precise, now: now, effects: &effects)
        case .share: return share(i, now: now, effects: &effects)
        case .reset: return reset(i)
        case .requestFullAccuracy(_, let purpose): return requestFullAccuracy(i, purpose, effects: &effects)
        case .session(_, let inUse): return session(i, inUse: inUse, now: now, effects: &effects)
        case .start: return start(i, now: now, effects: &effects)
        case .stop: return stop(i, effects: &effects)
        case .locate(_, let timeout): return locate(i, timeout: timeout, now: now, effects: &effects)
        }
    }

    // MARK: Messages

    func unknownClient(_ name: String) -> CommandError {
        let names = clients.map(\.settings.name)
        let list = names.isEmpty ? "no clients are configured" : "configured clients: " + names.joined(separator: ", ")
        return CommandError(.unknownClient, "no client named \"\(name)\"\(Suggestion.phrase(for: name, among: names)); \(list)")
    }

    func restrictedError(_ i: Int) -> CommandError {
        CommandError(
            .restricted,
            "\(clients[i].settings.name) is restricted by \(settings.policySource); only an administrator can change that there")
    }

    /// Why a client may not have location now, with the command that would change it.
    func deniedMessage(_ i: Int) -> String {
        let name = clients[i].settings.name
        if clients[i].restricted { return "\(name) is restricted by \(settings.policySource)" }
        if !services { return "Location Services are off; turn them on with: \(Command.services(on: true).commandLine)" }
        switch clients[i].grant {
        case .notDetermined: return "\(name) is not authorized yet (ask); request \(name) while-using"
        case .denied:
            return "the user denied location to \(name); it can be changed in settings: \(Command.authorize(client: name, status: .whileUsing).commandLine)"
        case .whenInUse, .always: return "\(name) is not authorized"
        }
    }

    static func answerList(_ kind: PromptKind) -> String {
        kind.answers.map(\.rawValue).joined(separator: ", ")
    }

    static func isBlank(_ text: String?) -> Bool {
        guard let text else { return true }
        return text.allSatisfy { $0 == " " || $0 == "\t" }
    }
}
