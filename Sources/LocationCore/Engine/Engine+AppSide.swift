import LocationProtocol
import LocationValues

/// The app side (docs/authorization.md §13): request, request-full-accuracy, session, start, stop, locate.
extension Engine {
    mutating func request(_ i: Int, _ kind: RequestKind, effects: inout EffectList) -> Outcome {
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
        switch (c.grant, kind) {
        case (.notDetermined, _):
            let text = (kind == .always ? c.settings.usageAlways : c.settings.usage) ?? ""
            return .success(open(.permission(kind, text: text), i, effects: &effects))
        case (.whenInUse(temporary: nil), .always):
            return requestAlwaysUpgrade(i, effects: &effects)
        case (.denied, _), (.whenInUse, _), (.always, _):
            let status = authorization(of: i).statusDescription
            return .success(
                CommandOutcome(
                    changed: false, message: "\(name) is \(status); a request asks only while the status is ask"))
        }
    }

    /// Withdraws `client`'s pending prompt, unanswered, because its app went away (docs/geoclue.md,
    /// "Prompts of apps that left"): nobody is left to get the answer. The status stays as it is,
    /// so the next time the app asks, a new prompt opens. Nothing when no prompt is pending.
    public mutating func withdrawPrompt(of client: String, reason: String, now: Double) -> [Effect] {
        noteTime(now)
        guard let i = index[client], let pending = clients[i].prompt else { return [] }
        clients[i].prompt = nil
        var effects = EffectList()
        effects.use(names: clientNames)
        effects.append(.event(.promptWithdrawn(pending.prompt(client: client), reason: reason)))
        return effects.effects
    }

    mutating func open(_ pending: PendingPrompt, _ i: Int, effects: inout EffectList) -> CommandOutcome {
        clients[i].prompt = pending
        let prompt = pending.prompt(client: clients[i].settings.name)
        effects.append(.event(.prompt(prompt, open: true)))
        return CommandOutcome(
            changed: true, message: "\(prompt.client): \(prompt.kind.rawValue) prompt pending (answers: \(Self.answerList(prompt.kind)))",
            prompt: prompt)
    }

    mutating func requestFullAccuracy(_ i: Int, _ purpose: String, effects: inout EffectList) -> Outcome {
        let c = clients[i]
        let name = c.settings.name
        guard let text = c.settings.purposes[purpose] else {
            let known = c.settings.purposes.keys.sorted()
            let list = known.isEmpty ? "it has none" : "known keys: " + known.joined(separator: ", ")
            return .failure(
                CommandError(.unknownPurpose, "\(name) has no purpose.\(PeerText.escaped(purpose, limit: 64)) in [client.\(name)]; \(list)"))
        }
        if c.accuracy.deliversFull {
            // As requestTemporaryFullAccuracyAuthorization: already full completes at once, without a prompt.
            return .success(
                CommandOutcome(changed: false, message: "\(name) already has \(c.accuracy.authorization) accuracy; nothing was asked"))
        }
        if !c.inUse {
            return .failure(
                CommandError(.notInUse, "\(name) is not in use; temporary full accuracy is asked while in use (\(Command.session(client: name, inUse: true).commandLine))"))
        }
        let status = effectiveStatus(i)
        guard status == .whileUsing || status == .always else {
            return .failure(CommandError(.denied, deniedMessage(i)))
        }
        if let pending = c.prompt {
            return .success(
                CommandOutcome(changed: false, message: "a \(pending.kind.rawValue) prompt is already pending for \(name)"))
        }
        return .success(open(.fullAccuracy(purpose: purpose, text: text), i, effects: &effects))
    }

    mutating func session(_ i: Int, inUse: Bool, now: Double, effects: inout EffectList) -> Outcome {
        let name = clients[i].settings.name
        guard clients[i].inUse != inUse else {
            return .success(CommandOutcome(changed: false, message: "\(name) is already \(inUse ? "in use" : "out of use")"))
        }
        clients[i].inUse = inUse
        clients[i].allowOnceSession(inUse: inUse, now: now)
        clients[i].temporaryFullAccuracySession(inUse: inUse, now: now)
        if inUse {
            let message = "\(name) is in use"
            useChanged(i, .sessionBegin, message, effects: &effects)
            return .success(CommandOutcome(changed: true, message: message))
        }
        let grace = Self.seconds(clients[i].settings.onceGrace)
        var message = "\(name) is out of use"
        if clients[i].allowOnceDeadline != nil { message += "; Allow Once ends after \(grace) out of use" }
        if clients[i].temporaryFullAccuracyDeadline != nil {
            message += "; temporary full accuracy ends after \(grace) out of use"
        }
        useChanged(i, .sessionEnd, message, effects: &effects)
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func start(_ i: Int, now: Double, effects: inout EffectList) -> Outcome {
        let name = clients[i].settings.name
        if let refused = refuse(i, effects: &effects) { return .failure(refused) }
        guard !clients[i].updating else {
            return .success(CommandOutcome(changed: false, message: "\(name) is already updating"))
        }
        clients[i].updating = true
        clients[i].anchor = nil
        let message = "\(name) is updating" + waitingNote(i)
        useChanged(i, .start, message, effects: &effects)
        _ = deliverReducedAgain(i, now: now, effects: &effects)
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func stop(_ i: Int, effects: inout EffectList) -> Outcome {
        let name = clients[i].settings.name
        guard clients[i].updating || clients[i].locate != nil else {
            return .success(CommandOutcome(changed: false, message: "\(name) is not updating"))
        }
        // As stopUpdatingLocation(), this also cancels a pending locate.
        let cancelled = clients[i].locate != nil
        clients[i].updating = false
        clients[i].locate = nil
        clients[i].anchor = nil
        let message = "\(name) stopped updating" + (cancelled ? "; its pending locate is cancelled" : "")
        useChanged(i, .stop, message, effects: &effects)
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func locate(_ i: Int, timeout: Double?, now: Double, effects: inout EffectList) -> Outcome {
        let name = clients[i].settings.name
        let seconds = timeout ?? clients[i].settings.locateTimeout
        guard seconds.isFinite, seconds > 0 else {
            return .failure(CommandError(.invalidArgument, "the locate timeout must be a positive number of seconds"))
        }
        if let refused = refuse(i, effects: &effects) { return .failure(refused) }
        let replaced = clients[i].locate != nil
        clients[i].locate = PendingLocate(deadline: now + seconds, timeout: seconds)
        clientDeadline = min(clientDeadline, now + seconds)
        let head = replaced ? "\(name): locate restarted" : "\(name): locate pending"
        let message = "\(head); one fix within \(Self.seconds(seconds)), else location-unknown" + waitingNote(i)
        useChanged(i, .locate, message, effects: &effects)
        if deliverReducedAgain(i, now: now, effects: &effects) {
            endLocateAgain(i, effects: &effects)
            return .success(CommandOutcome(changed: true, message: "\(name): the reduced position of this interval, delivered again at once"))
        }
        return .success(CommandOutcome(changed: true, message: message))
    }

    /// The `use` event for a change of what client `i` asks for, with its flags after it.
    func useChanged(_ i: Int, _ kind: UseChange.Kind, _ message: String, effects: inout EffectList) {
        let c = clients[i]
        effects.append(
            .event(
                .use(
                    UseChange(
                        client: c.settings.name, kind: kind, inUse: c.inUse, updating: c.updating,
                        locatePending: c.locate != nil, message: message))))
    }

    /// `denied` for start/locate while never or restricted (services off included), with the client-facing error event.
    func refuse(_ i: Int, effects: inout EffectList) -> CommandError? {
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
        switch c.grant {
        case .notDetermined:
            return "; nothing arrives until it is authorized (\(Command.request(client: name, kind: .whileUsing).commandLine), or \(Command.authorize(client: name, status: .whileUsing).commandLine))"
        case .whenInUse where !c.inUse:
            return "; fixes arrive only while it is in use (\(Command.session(client: name, inUse: true).commandLine))"
        case .always(provisional: true) where !c.inUse:
            return "; provisional always: fixes arrive only while it is in use until the user upgrades it"
        case .denied, .whenInUse, .always:
            return ""
        }
    }
}
