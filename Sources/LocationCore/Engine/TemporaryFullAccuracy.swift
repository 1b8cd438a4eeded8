/// Temporary full accuracy (`requestTemporaryFullAccuracyAuthorization`,
/// docs/authorization.md §3): granted for one configured purpose by the full-accuracy
/// prompt, it ends once the client has been out of use for `once_grace`
/// seconds, when the client loses its grant (or is restricted), when the
/// Precise switch is set either way, and at a restart (it is not saved).
/// This file is the whole rule; the grant itself is `Accuracy.temporaryFull`.
extension ClientState {
    /// The full-accuracy prompt answered allow, at `now`.
    mutating func grantTemporaryFullAccuracy(purpose: String, now: Double) {
        accuracy = .temporaryFull(purpose: purpose, until: inUse ? nil : now + settings.onceGrace)
    }

    /// When temporary full accuracy ends, if it is running out.
    var temporaryFullAccuracyDeadline: Double? {
        if case .temporaryFull(_, let until) = accuracy { return until }
        return nil
    }

    /// Going out of use starts the grace; coming back into use stops it.
    mutating func temporaryFullAccuracySession(inUse: Bool, now: Double) {
        guard case .temporaryFull(let purpose, _) = accuracy else { return }
        accuracy = .temporaryFull(purpose: purpose, until: inUse ? nil : now + settings.onceGrace)
    }

    /// The grace is over: back to reduced.
    mutating func expireTemporaryFullAccuracy(now: Double) {
        if let end = temporaryFullAccuracyDeadline, now >= end { accuracy = .reduced }
    }

    /// Ends a temporary grant now (the grant behind it went, or the policy locked the client).
    mutating func endTemporaryFullAccuracy() {
        if case .temporaryFull = accuracy { accuracy = .reduced }
    }
}
