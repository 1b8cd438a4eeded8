import LocationProtocol

/// Timers (locate timeout, Allow Once and temporary full accuracy grace) and
/// the receiver's outages (docs/authorization.md §3, §4).
extension Engine {
    /// Fires every timer due at `now`, in config order: locate timeouts here, the grants' own ends in
    /// AllowOnce.swift and TemporaryFullAccuracy.swift.
    mutating func runTimers(now: Double, effects: inout EffectList) {
        if now >= pinnedDeadline {
            runPinnedTimers(now: now)
            recomputePinnedDeadline()
        }
        if now >= clientDeadline {
            for i in clients.indices where now >= clients[i].nextDeadline {
                if let locate = clients[i].locate, now >= locate.deadline {
                    // Why the last fixes were not delivered, as `status` says it while the locate is pending.
                    let reason = explain(i, now: now, delivering: false).0
                    let why = reason.hasPrefix(Self.locatingPrefix) ? String(reason.dropFirst(Self.locatingPrefix.count)) : reason
                    clients[i].locate = nil
                    let message = "no fix was delivered within \(Self.seconds(locate.timeout)) of locate: \(why)"
                    effects.append(.event(.error(client: clients[i].settings.name, code: .locationUnknown, message: message)))
                    useChanged(i, .locateEnded, "\(clients[i].settings.name): locate timed out: \(message)", effects: &effects)
                }
                clients[i].expireAllowOnce(now: now)
                clients[i].expireTemporaryFullAccuracy(now: now)
            }
            recomputeClientDeadline()
        }
        // A file followed past its end is not an outage (#32): no location-unknown for it.
        if !outage, now >= outageDeadline, source != .endOfFile {
            startOutage()
        }
    }

    /// When a tick (`EngineInput.tick`) next has work to do, `now` seconds;
    /// infinity: not until another input. May be early, never late: the
    /// owner need not tick before it (the daemon's core sleeps until then).
    public var nextTimer: Double {
        min(clientTimer, outageTimer)
    }

    /// Whether a timer is due at `now` (the fix path's and the tick's test: three comparisons).
    @inline(__always)
    func timersDue(_ now: Double) -> Bool {
        now >= clientDeadline || now >= outageDeadline || now >= pinnedDeadline
    }

    /// When an outage next starts, `now` seconds: the 5 s without a usable fix (`outageDelay`;
    /// none in an outage, before the first usable fix, or for a file followed past its end:
    /// `runTimers`), or a pinned receiver's failover (`receiver = DEVICE` clients: its receiver's
    /// silence for `failover` seconds), whichever is first. Every usable fix moves them on: an
    /// owner that sleeps until the next timer would wake for them every few seconds while fixes
    /// keep coming, so the daemon's readers stand by for them in the wait they make anyway, and
    /// the core sleeps until `clientTimer`. Never early while the fixes come.
    public var outageTimer: Double {
        min(source == .endOfFile ? .infinity : outageDeadline, pinnedDeadline)
    }

    /// `nextTimer` less `outageTimer`: Allow Once, temporary full accuracy and locate timeouts,
    /// which no fix moves.
    public var clientTimer: Double { clientDeadline }

    /// Recomputes the earliest pending client timer, and the earliest pinned failover.
    mutating func recomputeClientDeadline() {
        var earliest = Double.infinity
        for i in clients.indices { earliest = min(earliest, clients[i].nextDeadline) }
        clientDeadline = earliest
        recomputePinnedDeadline()
    }

    /// The source reported its state.
    mutating func setSource(_ state: SourceState, now: Double, effects: inout EffectList) {
        if state != source {
            // Back from `connecting` (gpsd restarted, device plugged in again): each receiver's TTFF starts over.
            if source == .connecting { receivers.sourceReconnected(now: now) }
            source = state
            effects.append(.event(.source(state)))
            // A file followed past its end has no failover; one that grows again has.
            recomputePinnedDeadline()
        }
        // gpsd gone, or the receiver says it has no fix: the outage starts now, not 5 s later.
        if state == .connecting || state == .noFix, !outage {
            startOutage()
        }
    }

    mutating func startOutage() {
        outage = true
        outageDeadline = .infinity
    }

    /// A usable fix arrived: any outage is over and the 5 s clock restarts. A pinned client's outage is
    /// its receiver's (Engine+PinnedOutage.swift), not this one.
    mutating func endOutage(now: Double) {
        lastUsableAt = now
        outageDeadline = now + Self.outageDelay
        if outage {
            outage = false
            for i in clients.indices where clients[i].settings.receiver == nil { clients[i].outageNotified = false }
        }
    }

    /// Tells each updating client that could receive fixes, once per outage, that there is no fix: `best`
    /// clients of the source-wide outage here, pinned ones of their receiver's.
    mutating func notifyOutage(now: Double, effects: inout EffectList) {
        notifyPinnedOutages(now: now, effects: &effects)
        guard outage else { return }
        for i in clients.indices
        where clients[i].settings.receiver == nil && clients[i].updating && !clients[i].outageNotified && allowsDelivery(i) {
            clients[i].outageNotified = true
            let why =
                switch source {
                case .connecting: "the receiver is not connected"
                case .endOfFile: "the source is at the end of its file, following it"
                case .noFix: "the receiver has no fix"
                case .connected, .fix: "no usable fix for \(Self.seconds(Self.outageDelay))"
                }
            effects.append(.event(.error(client: clients[i].settings.name, code: .locationUnknown, message: why)))
        }
    }

    /// "30 s", "2.5 s".
    static func seconds(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return "\(Int64(value)) s" }
        return "\(value) s"
    }
}
