import LocationProtocol

/// The settings side (docs/authorization.md §13; the iOS Settings app): services, authorize, accuracy, share, reset.
extension Engine {
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
        let target = Grant(status)
        if clients[i].grant == target {
            return .success(CommandOutcome(changed: false, message: "\(name) is already \(status)"))
        }
        clients[i].setGrant(target)
        var message = "\(name): \(before.statusDescription) → \(status)"
        if !services { message += "; Location Services are off, so it reads never until `services on`" }
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func setAccuracy(_ i: Int, full: Bool) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        let before = clients[i].accuracy.authorization
        // Either switch position replaces a temporary grant.
        let target = Accuracy(precise: full)
        guard clients[i].accuracy != target else {
            return .success(CommandOutcome(changed: false, message: "\(name) already has \(target.authorization) accuracy"))
        }
        clients[i].accuracy = target
        return .success(CommandOutcome(changed: true, message: "\(name): accuracy \(before) → \(target.authorization)"))
    }

    mutating func share(_ i: Int, now: Double, effects: inout EffectList) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        guard services else {
            return .failure(CommandError(.denied, "Location Services are off; turn them on first: \(Command.services(on: true).commandLine)"))
        }
        let wasInUse = clients[i].inUse
        switch clients[i].grant {
        case .denied:
            return .failure(
                CommandError(
                    .denied,
                    "\(name) is never allowed location; the location button cannot override that, the user must change it in settings: \(Command.authorize(client: name, status: .whileUsing).commandLine)"
                ))
        case .notDetermined where !clients[i].shareConsent:
            // iOS 15: the button's first use asks once; after one allow, later shares grant at once.
            if let pending = clients[i].prompt {
                return .success(
                    CommandOutcome(
                        changed: false, message: "a \(pending.kind.rawValue) prompt is already pending for \(name); answer it first"))
            }
            return .success(open(.share(text: clients[i].settings.usage ?? ""), i, effects: &effects))
        case .notDetermined:
            grantShare(i, now: now)
            return .success(CommandOutcome(changed: true, message: "\(name): ask → while-using (once); it is in use"))
        case .whenInUse(temporary: .some):
            grantShare(i, now: now)
            return .success(
                CommandOutcome(
                    changed: !wasInUse,
                    message: wasInUse ? "\(name) already has while-using (once) and is in use" : "\(name) keeps while-using (once) and is in use again"))
        case .whenInUse(temporary: nil), .always:
            clients[i].inUse = true
            clients[i].temporaryFullAccuracySession(inUse: true, now: now)
            let status = authorization(of: i).statusDescription
            return .success(
                CommandOutcome(
                    changed: !wasInUse,
                    message: "\(name) is already authorized (\(status))" + (wasInUse ? "" : "; it is in use")))
        }
    }

    /// The location button: an Allow Once grant, in use.
    mutating func grantShare(_ i: Int, now: Double) {
        clients[i].inUse = true
        clients[i].grantAllowOnce(now: now)
        clients[i].temporaryFullAccuracySession(inUse: true, now: now)
    }

    /// Settings → Reset Location & Privacy, for one client: the configured first-start status and
    /// accuracy, no once, provisional or temporary grant, and the upgrade and share prompts as never
    /// shown. The reduced-accuracy secret stays: a fresh one would let someone average across resets.
    mutating func reset(_ i: Int) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        let grant = clients[i].configuredGrant
        let accuracy = Accuracy(precise: clients[i].settings.precise)
        let before = authorization(of: i)
        if clients[i].grant == grant, clients[i].accuracy == accuracy, !clients[i].upgradePromptShown,
            !clients[i].shareConsent
        {
            return .success(CommandOutcome(changed: false, message: "\(name) already has its configured first-start settings"))
        }
        clients[i].setGrant(grant)
        clients[i].accuracy = accuracy
        clients[i].upgradePromptShown = false
        clients[i].shareConsent = false
        let after = authorization(of: i)
        return .success(
            CommandOutcome(
                changed: true,
                message: "\(name) reset: \(before.statusDescription), \(before.accuracy) accuracy → \(after.statusDescription), \(after.accuracy) accuracy; the upgrade and share prompts will be shown again"))
    }
}
