/// The settings side of SPEC §3.2 (the iOS Settings app): services, authorize, accuracy, share.
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
}
