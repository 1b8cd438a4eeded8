/// `status` (SPEC §5.4): the engine's state at this moment, and per client
/// why it is or is not delivering and the one command that would change that.
extension Engine {
    /// The state at `now`, computed on request (nothing is cached).
    public func status(now: Double) -> EngineStatus {
        EngineStatus(
            services: services, source: source, lastFix: lastFix, lastFixAge: lastFixArrival.map { max(0, now - $0) },
            clients: clients.indices.map { clientStatus($0) })
    }

    func clientStatus(_ i: Int) -> ClientStatus {
        let c = clients[i]
        let (reason, suggestion) = explain(i)
        return ClientStatus(
            authorization: authorization(of: i), inUse: c.inUse, updating: c.updating,
            locatePending: c.locate != nil, prompt: c.prompt?.prompt(client: c.settings.name), delivering: isEligible(i),
            reason: reason,
            suggestion: suggestion, lastDelivered: c.lastDeliveredTime, deliveredCount: c.deliveredCount)
    }

    /// The first thing in §3.4's order that stops delivery, as a sentence and a command.
    func explain(_ i: Int) -> (String, String?) {
        let c = clients[i]
        let name = c.settings.name
        if c.restricted { return ("restricted by \(settings.policySource)", nil) }
        if !services { return ("Location Services are off", "services on") }
        switch c.prompt {
        case .permission(let kind, _)?:
            return ("waiting for the user to answer its \(kind.rawValue) prompt", "answer \(name) allow-while-using")
        case .share?:
            return ("waiting for the user to answer its share prompt (the location button's first use)", "answer \(name) allow")
        case .alwaysUpgrade?, .fullAccuracy?, nil:
            break
        }
        switch c.grant {
        case .notDetermined:
            return ("not authorized yet (ask)", "authorize \(name) while-using")
        case .denied:
            return ("the user denied location (never)", "authorize \(name) while-using")
        case .whenInUse where !c.inUse:
            return ("while-using, and not in use", "session \(name) begin")
        case .always(provisional: true) where !c.inUse:
            if case .alwaysUpgrade? = c.prompt {
                return ("provisional always, not in use: waiting for the user to answer the upgrade prompt", "answer \(name) change-to-always")
            }
            return ("provisional always: delivers only while in use", "authorize \(name) always")
        case .whenInUse, .always:
            break
        }
        guard c.updating || c.locate != nil else { return ("updates are stopped", "start \(name)") }
        var reason = c.locate != nil && !c.updating ? "locating (one fix)" : "delivering"
        if !c.accuracy.deliversFull {
            reason += ", reduced accuracy: a \(Self.metres(c.settings.reducedGrid)) grid at most every \(Self.seconds(c.settings.reducedInterval))"
        }
        if outage {
            reason += "; but the receiver has no usable fix now"
        }
        return (reason, nil)
    }

    static func metres(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return "\(Int64(value)) m" }
        return "\(value) m"
    }
}
