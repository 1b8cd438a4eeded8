import LocationProtocol
import LocationValues

/// The fix path (docs/authorization.md §4): for each client, in config order, the eight
/// steps. This is the hot path: it allocates nothing unless it delivers, and
/// solves a geodesic only when the chord bounds cannot decide the distance
/// filter (see `GeodesicThreshold`).
extension Engine {
    mutating func handleFix(_ fix: Fix, now: Double, effects: inout EffectList) {
        if timersDue(now) {
            let before = snapshot()
            runTimers(now: now, effects: &effects)
            finish(before, now: now, effects: &effects, deferPersist: true)
        }
        let usable = fix.isUsable
        let device = fix.device ?? ""
        // The first choice is no change anyone follows; a move from one receiver to another is.
        if let change = receivers.observe(device, quality: usable ? ReceiverQuality(fix) : nil, now: now),
            change.from != nil
        {
            effects.append(.event(.receiver(change)))
        }
        // The source's state and outages follow the receiver `best` clients follow: another receiver's
        // "no fix" is no outage while the chosen one reports.
        if receivers.chosen == nil || receivers.chosen == device {
            noteSource(fix, usable: usable, now: now, effects: &effects)
        }
        if usable, let time = fix.time {
            if anyPinned { endPinnedOutages(device, now: now) }
            let (base, jump) = timeBases.observe(device, time: time, now: now)
            if let jump { effects.append(.event(.timeJump(jump))) }
            deliver(fix, time: time, base: base, device: device, now: now, effects: &effects)
        } else {
            // Unusable fixes deliver nothing, but they still end runs of clients that fail steps 1–3,
            // and each client counts the fix under the first step it fails.
            for i in clients.indices {
                guard follows(i, device) else {
                    clients[i].track.otherReceiver()
                    continue
                }
                if let refusal = eligibilityRefusal(i) {
                    clients[i].anchor = nil
                    clients[i].track.drop(refusal)
                } else {
                    clients[i].track.drop(.unusable)
                }
            }
        }
        if persistPending {
            persistPending = false
            effects.append(.persist)
        }
    }

    /// Source-level bookkeeping of one fix: last fix, source state, outages.
    mutating func noteSource(_ fix: Fix, usable: Bool, now: Double, effects: inout EffectList) {
        if fix.mode == .twoD || fix.mode == .threeD {
            lastFix = fix
            lastFixArrival = now
        }
        if usable {
            // A usable fix says the receiver has a fix whatever the source last reported.
            if source != .fix {
                source = .fix
                effects.append(.event(.source(.fix)))
            }
            endOutage(now: now)
        } else if fix.mode == .noFix || fix.mode == .unknown {
            if source == .fix || source == .connected {
                source = .noFix
                effects.append(.event(.source(.noFix)))
            }
            // While another receiver gives usable fixes the choice moves to it within `failover`
            // seconds: `best` clients are no worse off than with a silent receiver (the 5 s clock).
            if !outage, receivers.bestFresh(now: now) == nil {
                startOutage()
                notifyOutage(now: now, effects: &effects)
            }
        }
    }

    /// Whether client `i` takes `device`'s fixes: its pinned receiver, or the one `best` clients follow.
    @inline(__always)
    func follows(_ i: Int, _ device: String) -> Bool {
        if let pinned = clients[i].settings.receiver { return pinned == device }
        return receivers.chosen == nil || receivers.chosen == device
    }

    /// Steps 0–8 for every client; every fix not delivered is counted under its reason.
    mutating func deliver(_ fix: Fix, time: Double, base: Int, device: String, now: Double, effects: inout EffectList) {
        var fixPoint: EarthPoint?
        /// Where `fix` is in `effects.fixes` once a client gets it at full accuracy (stored once for all).
        var fullFix: Int?
        for i in clients.indices {
            // Step 0: the client takes another receiver's fixes (docs/sources.md, "Several receivers").
            guard follows(i, device) else {
                clients[i].track.otherReceiver()
                continue
            }
            // Steps 1–2.
            if let refusal = authorizationRefusal(i) {
                clients[i].anchor = nil
                clients[i].track.drop(refusal)
                if clients[i].grant.isProvisional { considerUpgradePrompt(i, fix: fix, time: time, base: base, effects: &effects) }
                continue
            }
            // Step 3.
            let locating = clients[i].locate != nil
            guard clients[i].updating || locating else {
                clients[i].anchor = nil
                clients[i].track.drop(.notUpdating)
                continue
            }
            // Step 4 (the rest of "usable" was checked once for all clients): not an epoch this
            // client already has in the current time base. An older fix started a new base above.
            if clients[i].track.isSameEpoch(time, base: base) {
                clients[i].track.drop(.sameEpoch)
                continue
            }
            // Step 5: an unknown estimate passes.
            if let error = fix.horizontalError, !(error <= clients[i].accuracyLimit) {
                clients[i].track.gated(error: error)
                continue
            }
            // Step 6, on the monotonic clock.
            let out: Fix
            let point: EarthPoint
            let reduced = !clients[i].deliversFull
            if reduced {
                guard
                    clients[i].reducedLimit.isOpen(
                        now: now, utc: now + wallClockOffset, interval: clients[i].settings.reducedInterval)
                else {
                    // A locate within the interval gets the coarse position already delivered in it again:
                    // promptly, and with no new information.
                    if locating, deliverReducedAgain(i, now: now, effects: &effects) {
                        endLocateAgain(i, effects: &effects)
                    } else {
                        clients[i].track.drop(.reducedRate)
                    }
                    continue
                }
                let hour = clients[i].reduced.driftHour
                out = ReducedAccuracy.obfuscate(fix, state: &clients[i].reduced, grid: clients[i].settings.reducedGrid)
                // The drift clock is saved state; a fix in the same hour leaves it alone.
                if clients[i].reduced.driftHour != hour { persistPending = true }
                point = EarthPoint(latitude: out.latitude, longitude: out.longitude)
            } else {
                out = fix
                if let p = fixPoint {
                    point = p
                } else {
                    // Consecutive fixes are close: their sines and cosines follow from the last ones.
                    let (sinLat, cosLat) = latitudeTrig(fix.latitude * Geodesy.degrees)
                    let (sinLon, cosLon) = longitudeTrig(fix.longitude * Geodesy.degrees)
                    let p = EarthPoint(
                        latitude: fix.latitude, longitude: fix.longitude, sinLat: sinLat, cosLat: cosLat, sinLon: sinLon,
                        cosLon: cosLon)
                    fixPoint = p
                    point = p
                }
            }
            // Step 7: within a run; a locate takes the first fix whatever its distance.
            if !locating, let distanceFilter = clients[i].distanceFilter, let anchor = clients[i].anchor,
                !distanceFilter.isReached(from: anchor, to: point)
            {
                clients[i].track.drop(.distanceFilter)
                continue
            }
            // Step 8.
            if reduced {
                effects.deliver(client: i, fix: effects.add(out), accuracy: .reduced)
            } else {
                let stored = fullFix ?? effects.add(fix)
                fullFix = stored
                effects.deliver(client: i, fix: stored, accuracy: .full)
            }
            clients[i].anchor = point
            clients[i].track.delivered(time: time, base: base, now: now)
            if reduced {
                clients[i].reducedLimit.delivered(now: now)
                clients[i].reduced.lastDelivery = now + wallClockOffset
                clients[i].lastReducedFix = out
                persistPending = true
            }
            if locating {
                clients[i].locate = nil
                if !clients[i].updating { clients[i].anchor = nil }
                useChanged(i, .locateEnded, "\(clients[i].settings.name): locate ended: one fix delivered", effects: &effects)
            }
        }
    }
}
