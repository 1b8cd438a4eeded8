import LocationProtocol
import LocationValues

/// `status` (docs/protocol.md; docs/authorization.md §4, "What is not delivered"): the engine's state at this moment, and per client
/// why it is or is not delivering and the one command that would change that.
extension Engine {
    /// Whether Location Services are on (what `status(now:).services` says, without building the status).
    public var servicesOn: Bool { services }

    /// The mode of the last 2D or 3D fix of the receiver `best` clients follow (what
    /// `status(now:).lastFix` says of it, without building the status).
    public var lastFixMode: FixMode? { lastFix?.mode }

    /// The state at `now`, computed on request (nothing is cached).
    public func status(now: Double) -> EngineStatus {
        var status = EngineStatus(
            services: services, source: source, lastFix: lastFix, lastFixAge: lastFixArrival.map { max(0, now - $0) },
            clients: clients.indices.map { clientStatus($0, now: now) })
        status.timeJumps = timeBases.jumps
        status.lastTimeJump = timeBases.lastJump
        status.lastTimeJumpAge = timeBases.lastJump.map { max(0, now - $0.at) }
        status.receivers = receiverStatuses(now: now)
        return status
    }

    /// What a pending locate's reason starts with while the client is not updating.
    public static let locatingPrefix = ClientStatus.locatingPrefix

    /// A client counts as `delivering` in `status` when it was delivered a fix within this many seconds.
    public static let deliveringWindow = 5.0

    func clientStatus(_ i: Int, now: Double) -> ClientStatus {
        let c = clients[i]
        let age = c.track.lastAt.map { max(0, now - $0) }
        let eligible = isEligible(i)
        // A pinned client whose receiver is silent is in its outage, whatever it had a moment ago.
        let delivering = eligible && age.map { $0 <= Self.deliveringWindow } == true && !pinnedReceiverSilent(i, now: now)
        let (reason, suggestion) = explain(i, now: now, delivering: delivering)
        return ClientStatus(
            authorization: authorization(of: i), inUse: c.inUse, updating: c.updating,
            locatePending: c.locate != nil, prompt: c.prompt?.prompt(client: c.settings.name), delivering: delivering, reason: reason,
            suggestion: suggestion?.command(client: c.settings.name), lastDelivered: c.track.lastTime, deliveredCount: c.track.delivered,
            drops: c.track.drops, lastDeliveredAge: age, eligible: eligible, locateLeft: c.locate.map { max(0, $0.deadline - now) })
    }

    /// The first thing in the delivery steps' order that stops delivery, as a sentence and a command
    /// (`nil` when delivering or when no command helps, as in an outage).
    func explain(_ i: Int, now: Double, delivering: Bool) -> (String, NextStep?) {
        let c = clients[i]
        let name = c.settings.name
        if c.restricted { return ("restricted by \(settings.policySource)", nil) }
        if !services { return ("Location Services are off", .servicesOn) }
        switch c.prompt {
        case .permission(let kind, _)?:
            return ("waiting for the user to answer its \(kind.rawValue) prompt", .answerPermission)
        case .share?:
            return ("waiting for the user to answer its share prompt (the location button's first use)", .answerShare)
        case .alwaysUpgrade?, .fullAccuracy?, nil:
            break
        }
        switch c.grant {
        case .notDetermined:
            return ("not authorized yet (ask)", .authorizeWhileUsing)
        case .denied:
            return ("the user denied location (never)", .authorizeWhileUsing)
        case .whenInUse where !c.inUse:
            return ("while-using, and not in use", .beginSession)
        case .always(provisional: true) where !c.inUse:
            if case .alwaysUpgrade? = c.prompt {
                return ("provisional always, not in use: waiting for the user to answer the upgrade prompt", .answerUpgrade)
            }
            if c.upgradePromptShown {
                return (
                    "provisional always: delivers only while in use; the upgrade prompt was already shown and will not come again "
                        + "(`\(Command.reset(client: name).commandLine)` shows it again)",
                    .authorizeAlways
                )
            }
            return ("provisional always: delivers only while in use", .authorizeAlways)
        case .whenInUse, .always:
            break
        }
        guard c.updating || c.locate != nil else { return ("updates are stopped", .start) }
        // A reduction the app asked for (`desired_accuracy = reduced`) is said to be its own, not the person's switch.
        let reduction = c.accuracy.deliversFull ? "reduced accuracy, as the app asks (desired_accuracy = reduced)" : "reduced accuracy"
        let rate =
            c.deliversFull
            ? "" : "\(reduction): a \(Self.metres(c.settings.reducedGrid)) grid at most every \(Self.seconds(c.settings.reducedInterval))"
        if delivering {
            let what = c.locate != nil && !c.updating ? "locating (one fix)" : "delivering"
            return (rate.isEmpty ? what : "\(what), \(rate)", nil)
        }
        return stoppedReason(i, now: now, rate: rate)
    }

    /// Eligible, but nothing delivered within `deliveringWindow`: what the latest fixes ran into.
    func stoppedReason(_ i: Int, now: Double, rate: String) -> (String, NextStep?) {
        let c = clients[i]
        let waiting = c.locate != nil && !c.updating ? Self.locatingPrefix : ""
        if source == .endOfFile || pinnedAtEndOfFile(i) {
            // A pinned client's last fix is its receiver's.
            let at = c.settings.receiver.map { receivers.seen[$0]?.lastUsableAt } ?? lastUsableAt
            let last = at.map { "; last usable fix \(TextFormat.duration(now - $0)) ago" } ?? ""
            return (waiting + "the source is at the end of its file, following it\(last)", nil)
        }
        // A pinned receiver that gives nothing is this client's outage, whatever the others do.
        if c.settings.receiver != nil, receivers.seen[c.settings.receiver ?? ""] == nil || pinnedReceiverSilent(i, now: now),
            let silence = pinnedSilence(i, now: now)
        {
            return (waiting + silence, nil)
        }
        // `status` runs no timers: the 5 s without a usable fix may be up without an input since.
        if outage || now >= outageDeadline || c.track.lastDrop == .unusable {
            guard let since = lastUsableAt ?? startedAt else { return (waiting + "no usable fix yet", nil) }
            let what =
                switch source {
                case .connecting: "the receiver is not connected"
                case .noFix, .connected, .fix, .endOfFile: lastUsableAt == nil ? "no usable fix yet" : "no usable fix"
                }
            return (waiting + "\(what) for \(TextFormat.duration(now - since))", nil)
        }
        switch c.track.lastDrop {
        case .sameEpoch:
            return (waiting + "the receiver repeats an epoch already delivered (\(c.track.drops[.sameEpoch]) so far)", nil)
        case .accuracyGate:
            let error = c.track.lastGatedError.map(TextFormat.error) ?? "worse"
            let limit = Self.metres(c.accuracyLimit)
            return (
                waiting
                    + "fixes are \(error), desired accuracy is \(limit) (\(c.settings.desiredAccuracy)); \(c.track.drops[.accuracyGate]) held back",
                nil
            )
        case .reducedRate:
            let next = c.reducedLimit.remaining(now: now, utc: now + wallClockOffset, interval: c.settings.reducedInterval)
            // Full accuracy is the step only when the person's switch is what reduces it.
            return (waiting + "\(rate); the next fix in \(TextFormat.duration(next))", c.accuracy.deliversFull ? nil : .fullAccuracy)
        case .distanceFilter:
            let filter = c.settings.distanceFilter.map(Self.metres) ?? "?"
            return (
                waiting
                    + "within the distance filter (\(filter)) of the last delivered position; \(c.track.drops[.distanceFilter]) fixes held back",
                nil
            )
        case .otherReceiver, .servicesOff, .notAuthorized, .notInUse, .notUpdating, .unusable, nil:
            // The steps 1–3 cases were answered above; here only time has passed without a fix.
            guard let last = lastFixArrival else { return (waiting + "waiting for the first fix from the receiver", nil) }
            return (waiting + "no fix from the receiver for \(TextFormat.duration(now - last))", nil)
        }
    }

    static func metres(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return "\(Int64(value)) m" }
        return "\(value) m"
    }
}
