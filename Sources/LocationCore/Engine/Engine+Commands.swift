/// The three sides of SPEC §3.2 as commands, and every row of the §3.3 table.
/// Each handler changes state and returns the reply; the events that follow
/// from the change (authorization, closed prompts) come from `finish`.
extension Engine {
    typealias Outcome = Result<CommandOutcome, CommandError>

    mutating func execute(_ command: Command, now: Double, effects: inout [Effect]) -> Outcome {
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
        case .answer(_, let reply): return answerPrompt(i, reply, now: now, effects: &effects)
        case .share: return share(i)
        case .requestFullAccuracy(_, let purpose): return requestFullAccuracy(i, purpose, effects: &effects)
        case .session(_, let inUse): return session(i, inUse: inUse, now: now)
        case .start: return start(i, effects: &effects)
        case .stop: return stop(i)
        case .locate(_, let timeout): return locate(i, timeout: timeout, now: now, effects: &effects)
        }
    }

    // MARK: Settings side

    mutating func setServices(_ on: Bool) -> Outcome {
        let word = on ? "on" : "off"
        guard services != on else { return .success(CommandOutcome(changed: false, message: "Location Services are already \(word)")) }
        services = on
        let message =
            on
            ? "Location Services are on; every client has its stored status again"
            : "Location Services are off; every client is never until `services on`"
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func authorize(_ i: Int, _ status: AuthorizationStatus) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        guard status != .restricted else {
            return .failure(
                CommandError(
                    .invalidArgument,
                    "restricted is set only by an administrator in \(settings.policySource); choose never, ask, while-using or always"
                ))
        }
        let before = authorization(of: i)
        if clients[i].stored == status, !clients[i].once, !clients[i].provisional {
            return .success(CommandOutcome(changed: false, message: "\(name) is already \(status)"))
        }
        clients[i].stored = status
        clients[i].once = false
        clients[i].provisional = false
        clients[i].onceDeadline = nil
        var message = "\(name): \(before.statusDescription) → \(status)"
        if !services { message += "; Location Services are off, so it reads never until `services on`" }
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func setAccuracy(_ i: Int, full: Bool) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        let before = clients[i].accuracy
        if full {
            guard !clients[i].fullAccuracy else {
                return .success(CommandOutcome(changed: false, message: "\(name) already has full accuracy"))
            }
            clients[i].fullAccuracy = true
        } else {
            guard clients[i].fullAccuracy || clients[i].temporaryPurpose != nil else {
                return .success(CommandOutcome(changed: false, message: "\(name) already has reduced accuracy"))
            }
            clients[i].fullAccuracy = false
        }
        // Either switch position replaces a temporary grant.
        clients[i].temporaryPurpose = nil
        clients[i].fullDeadline = nil
        return .success(CommandOutcome(changed: true, message: "\(name): accuracy \(before) → \(clients[i].accuracy)"))
    }

    mutating func share(_ i: Int) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        guard services else {
            return .failure(CommandError(.denied, "Location Services are off; turn them on first: services on"))
        }
        switch clients[i].stored {
        case .never, .restricted:
            return .failure(
                CommandError(
                    .denied,
                    "\(name) is never allowed location; the location button cannot override that, the user must change it in settings: authorize \(name) while-using"
                ))
        case .ask:
            grantOnce(i)
            return .success(CommandOutcome(changed: true, message: "\(name): ask → while-using (once); it is in use"))
        case .whileUsing where clients[i].once:
            let changed = !clients[i].inUse
            grantOnce(i)
            return .success(
                CommandOutcome(
                    changed: changed,
                    message: changed ? "\(name) keeps while-using (once) and is in use again" : "\(name) already has while-using (once) and is in use"))
        case .whileUsing, .always:
            let changed = !clients[i].inUse
            clients[i].inUse = true
            clients[i].onceDeadline = nil
            clients[i].fullDeadline = nil
            let status = authorization(of: i).statusDescription
            return .success(
                CommandOutcome(
                    changed: changed,
                    message: "\(name) is already authorized (\(status))" + (changed ? "; it is in use" : "")))
        }
    }

    /// The location button: a temporary while-using grant, in use.
    mutating func grantOnce(_ i: Int) {
        clients[i].stored = .whileUsing
        clients[i].once = true
        clients[i].provisional = false
        clients[i].inUse = true
        clients[i].onceDeadline = nil
        clients[i].fullDeadline = nil
    }

    // MARK: App side

    mutating func request(_ i: Int, _ kind: RequestKind, effects: inout [Effect]) -> Outcome {
        let c = clients[i]
        let name = c.settings.name
        let section = "[client.\(name)]"
        if Self.isBlank(c.settings.usage) {
            return .failure(
                CommandError(
                    .missingUsageDescription,
                    "\(name) has no `usage` text in \(section); a client must say why it wants location before it can ask"))
        }
        if kind == .always, Self.isBlank(c.settings.usageAlways) {
            return .failure(
                CommandError(
                    .missingUsageDescription,
                    "\(name) has no `usage_always` text in \(section); it is needed to ask for always"))
        }
        if c.restricted {
            return .success(
                CommandOutcome(changed: false, message: "\(name) is restricted by \(settings.policySource); nothing was asked"))
        }
        if !services {
            return .success(
                CommandOutcome(changed: false, message: "Location Services are off; nothing was asked (services on)"))
        }
        if let pending = c.prompt {
            return .success(
                CommandOutcome(changed: false, message: "a \(pending.kind.rawValue) prompt is already pending for \(name)"))
        }
        switch c.stored {
        case .ask:
            let prompt =
                kind == .always
                ? Prompt(client: name, kind: .always, text: c.settings.usageAlways ?? "")
                : Prompt(client: name, kind: .whileUsing, text: c.settings.usage ?? "")
            return .success(open(prompt, i, effects: &effects))
        case .whileUsing where kind == .always && !c.once:
            guard !c.upgradePromptShown else {
                return .success(
                    CommandOutcome(
                        changed: false,
                        message: "the always prompt has already been shown to the user once; it can be changed in settings: authorize \(name) always"))
            }
            clients[i].upgradePromptShown = true
            let prompt = Prompt(client: name, kind: .alwaysUpgrade, text: c.settings.usageAlways ?? "")
            return .success(open(prompt, i, effects: &effects))
        default:
            let status = authorization(of: i).statusDescription
            return .success(
                CommandOutcome(
                    changed: false, message: "\(name) is \(status); a request asks only while the status is ask"))
        }
    }

    mutating func open(_ prompt: Prompt, _ i: Int, effects: inout [Effect]) -> CommandOutcome {
        clients[i].prompt = prompt
        effects.append(.event(.prompt(prompt, open: true)))
        return CommandOutcome(
            changed: true, message: "\(prompt.client): \(prompt.kind.rawValue) prompt pending (answers: \(Self.answerList(prompt.kind)))",
            prompt: prompt)
    }

    mutating func requestFullAccuracy(_ i: Int, _ purpose: String, effects: inout [Effect]) -> Outcome {
        let c = clients[i]
        let name = c.settings.name
        guard let text = c.settings.purposes[purpose] else {
            let known = c.settings.purposes.keys.sorted()
            let list = known.isEmpty ? "it has none" : "known keys: " + known.joined(separator: ", ")
            return .failure(
                CommandError(.unknownPurpose, "\(name) has no purpose.\(purpose) in [client.\(name)]; \(list)"))
        }
        if c.accuracy.isFull {
            return .failure(CommandError(.alreadyFull, "\(name) already has \(c.accuracy) accuracy"))
        }
        if !c.inUse {
            return .failure(
                CommandError(.notInUse, "\(name) is not in use; temporary full accuracy is asked while in use (session \(name) begin)"))
        }
        let status = effectiveStatus(i)
        guard status == .whileUsing || status == .always else {
            return .failure(CommandError(.denied, deniedMessage(i)))
        }
        if let pending = c.prompt {
            return .success(
                CommandOutcome(changed: false, message: "a \(pending.kind.rawValue) prompt is already pending for \(name)"))
        }
        let prompt = Prompt(client: name, kind: .fullAccuracy, text: text, purpose: purpose)
        return .success(open(prompt, i, effects: &effects))
    }

    mutating func session(_ i: Int, inUse: Bool, now: Double) -> Outcome {
        let name = clients[i].settings.name
        guard clients[i].inUse != inUse else {
            return .success(CommandOutcome(changed: false, message: "\(name) is already \(inUse ? "in use" : "out of use")"))
        }
        clients[i].inUse = inUse
        if inUse {
            clients[i].onceDeadline = nil
            clients[i].fullDeadline = nil
            return .success(CommandOutcome(changed: true, message: "\(name) is in use"))
        }
        let grace = clients[i].settings.onceGrace
        var message = "\(name) is out of use"
        if clients[i].once {
            clients[i].onceDeadline = now + grace
            message += "; Allow Once ends after \(Self.seconds(grace)) out of use"
        }
        if clients[i].temporaryPurpose != nil {
            clients[i].fullDeadline = now + grace
            message += "; temporary full accuracy ends after \(Self.seconds(grace)) out of use"
        }
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func start(_ i: Int, effects: inout [Effect]) -> Outcome {
        let name = clients[i].settings.name
        if let refused = refuse(i, effects: &effects) { return .failure(refused) }
        guard !clients[i].updating else {
            return .success(CommandOutcome(changed: false, message: "\(name) is already updating"))
        }
        clients[i].updating = true
        clients[i].anchor = nil
        return .success(CommandOutcome(changed: true, message: "\(name) is updating" + waitingNote(i)))
    }

    mutating func stop(_ i: Int) -> Outcome {
        let name = clients[i].settings.name
        guard clients[i].updating || clients[i].locateDeadline != nil else {
            return .success(CommandOutcome(changed: false, message: "\(name) is not updating"))
        }
        // As stopUpdatingLocation(), this also cancels a pending locate.
        clients[i].updating = false
        clients[i].locateDeadline = nil
        clients[i].anchor = nil
        return .success(CommandOutcome(changed: true, message: "\(name) stopped updating"))
    }

    mutating func locate(_ i: Int, timeout: Double?, now: Double, effects: inout [Effect]) -> Outcome {
        let name = clients[i].settings.name
        let seconds = timeout ?? clients[i].settings.locateTimeout
        guard seconds.isFinite, seconds > 0 else {
            return .failure(CommandError(.invalidArgument, "the locate timeout must be a positive number of seconds"))
        }
        if let refused = refuse(i, effects: &effects) { return .failure(refused) }
        let replaced = clients[i].locateDeadline != nil
        clients[i].locateDeadline = now + seconds
        clients[i].locateTimeout = seconds
        clientDeadline = min(clientDeadline, now + seconds)
        let head = replaced ? "\(name): locate restarted" : "\(name): locate pending"
        return .success(
            CommandOutcome(
                changed: true, message: "\(head); one fix within \(Self.seconds(seconds)), else location-unknown" + waitingNote(i)))
    }

    /// `denied` for start/locate while never or restricted (services off included), with the client-facing error event.
    func refuse(_ i: Int, effects: inout [Effect]) -> CommandError? {
        let status = effectiveStatus(i)
        guard status == .never || status == .restricted else { return nil }
        let message = deniedMessage(i)
        effects.append(.event(.error(client: clients[i].settings.name, code: .denied, message: message)))
        return CommandError(.denied, message)
    }

    /// Why nothing will arrive yet although the command was accepted, if so.
    func waitingNote(_ i: Int) -> String {
        let c = clients[i]
        let name = c.settings.name
        switch c.stored {
        case .ask:
            return "; nothing arrives until it is authorized (request \(name) while-using, or authorize \(name) while-using)"
        case .whileUsing where !c.inUse:
            return "; fixes arrive only while it is in use (session \(name) begin)"
        case .always where c.provisional && !c.inUse:
            return "; provisional always: fixes arrive only while it is in use until the user upgrades it"
        default:
            return ""
        }
    }

    // MARK: User side

    mutating func answerPrompt(_ i: Int, _ answer: Answer, now: Double, effects: inout [Effect]) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        guard let prompt = clients[i].prompt else {
            return .failure(CommandError(.noPrompt, "no prompt is pending for \(name)"))
        }
        guard prompt.kind.answers.contains(answer) else {
            return .failure(
                CommandError(
                    .invalidAnswer,
                    "a \(prompt.kind.rawValue) prompt takes \(Self.answerList(prompt.kind)), not \(answer.rawValue)"))
        }
        clients[i].prompt = nil
        effects.append(.event(.prompt(prompt, open: false)))
        let before = authorization(of: i).statusDescription
        switch (prompt.kind, answer) {
        case (.whileUsing, .allowWhileUsing):
            setStored(i, .whileUsing)
        case (.always, .allowWhileUsing):
            // As iOS 13+: "Allow While Using App" on an always request gives provisional always.
            setStored(i, .always)
            clients[i].provisional = true
        case (.whileUsing, .allowOnce), (.always, .allowOnce):
            setStored(i, .whileUsing)
            clients[i].once = true
            clients[i].onceDeadline = clients[i].inUse ? nil : now + clients[i].settings.onceGrace
        case (.whileUsing, .deny), (.always, .deny):
            setStored(i, .never)
        case (.alwaysUpgrade, .keepWhileUsing):
            setStored(i, .whileUsing)
        case (.alwaysUpgrade, .changeToAlways):
            setStored(i, .always)
        case (.fullAccuracy, .allow):
            clients[i].temporaryPurpose = prompt.purpose ?? ""
            clients[i].fullDeadline = clients[i].inUse ? nil : now + clients[i].settings.onceGrace
            return .success(
                CommandOutcome(
                    changed: true,
                    message: "\(name): temporary full accuracy (\(prompt.purpose ?? "")) until \(Self.seconds(clients[i].settings.onceGrace)) out of use"))
        case (.fullAccuracy, .deny):
            return .success(CommandOutcome(changed: true, message: "\(name) keeps reduced accuracy; the prompt is closed"))
        case (.whileUsing, _), (.always, _), (.alwaysUpgrade, _), (.fullAccuracy, _):
            preconditionFailure("answer \(answer.rawValue) passed the \(prompt.kind.rawValue) prompt's answer check")
        }
        return .success(
            CommandOutcome(changed: true, message: "\(name): \(before) → \(authorization(of: i).statusDescription)"))
    }

    mutating func setStored(_ i: Int, _ status: AuthorizationStatus) {
        clients[i].stored = status
        clients[i].once = false
        clients[i].provisional = false
        clients[i].onceDeadline = nil
    }

    // MARK: Messages

    func unknownClient(_ name: String) -> CommandError {
        let names = clients.map(\.settings.name)
        let list = names.isEmpty ? "no clients are configured" : "configured clients: " + names.joined(separator: ", ")
        return CommandError(.unknownClient, "no client named \"\(name)\"; \(list)")
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
        if !services { return "Location Services are off; turn them on with: services on" }
        switch clients[i].stored {
        case .ask: return "\(name) is not authorized yet (ask); request \(name) while-using"
        case .never, .restricted:
            return "the user denied location to \(name); it can be changed in settings: authorize \(name) while-using"
        case .whileUsing, .always: return "\(name) is not authorized"
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
