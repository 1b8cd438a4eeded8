/// The settings side of SPEC §3.2 (the iOS Settings app): services, authorize, accuracy, share, reset.
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

    mutating func share(_ i: Int, effects: inout [Effect]) -> Outcome {
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
        case .ask where !clients[i].shareConsent:
            // iOS 15: the button's first use asks once; after one allow, later shares grant at once.
            if let pending = clients[i].prompt {
                return .success(
                    CommandOutcome(
                        changed: false, message: "a \(pending.kind.rawValue) prompt is already pending for \(name); answer it first"))
            }
            let c = clients[i]
            return .success(open(Prompt(client: name, kind: .share, text: c.settings.usage ?? ""), i, effects: &effects))
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
}

extension Engine {
    /// Settings → Reset Location & Privacy, for one client: the configured first-start status and
    /// accuracy, no once, provisional or temporary grant, and the upgrade and share prompts as never
    /// shown. The reduced-accuracy secret stays: a fresh one would let someone average across resets.
    mutating func reset(_ i: Int) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        let settings = clients[i].settings
        let status = settings.authorization == .restricted ? AuthorizationStatus.never : settings.authorization
        let before = authorization(of: i)
        let wasShown = clients[i].upgradePromptShown || clients[i].shareConsent
        if clients[i].stored == status, !clients[i].once, !clients[i].provisional,
            clients[i].fullAccuracy == settings.precise, clients[i].temporaryPurpose == nil, !wasShown
        {
            return .success(CommandOutcome(changed: false, message: "\(name) already has its configured first-start settings"))
        }
        setStored(i, status)
        clients[i].fullAccuracy = settings.precise
        clients[i].temporaryPurpose = nil
        clients[i].fullDeadline = nil
        clients[i].upgradePromptShown = false
        clients[i].shareConsent = false
        let after = authorization(of: i)
        return .success(
            CommandOutcome(
                changed: true,
                message: "\(name) reset: \(before.statusDescription), \(before.accuracy) accuracy → \(after.statusDescription), \(after.accuracy) accuracy; the upgrade and share prompts will be shown again"))
    }
}
