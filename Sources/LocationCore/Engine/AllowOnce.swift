/// Allow Once, and the location button's grant (docs/authorization.md §3): a while-using
/// grant that ends once the client has been out of use for `once_grace`
/// seconds (counted from going out of use, or from the grant if it was made
/// out of use), or at a restart (it is saved as `ask`). This file is the whole
/// rule; the grant itself is `Grant.whenInUse(temporary:)`.
struct AllowOnce: Sendable, Hashable {
    /// When the grant ends if the client stays out of use; `nil` while it is in use.
    var endsAt: Double?
}

extension ClientState {
    /// Grants Allow Once at `now` (the answer allow-once, or the location button).
    mutating func grantAllowOnce(now: Double) {
        setGrant(.whenInUse(temporary: AllowOnce(endsAt: inUse ? nil : now + settings.onceGrace)))
    }

    /// When the once grant ends, if it is running out.
    var allowOnceDeadline: Double? {
        if case .whenInUse(let once?) = grant { return once.endsAt }
        return nil
    }

    /// Going out of use starts the grace; coming back into use stops it.
    mutating func allowOnceSession(inUse: Bool, now: Double) {
        guard case .whenInUse(.some) = grant else { return }
        grant = .whenInUse(temporary: AllowOnce(endsAt: inUse ? nil : now + settings.onceGrace))
    }

    /// The grace is over: back to `ask`, as iOS does once the app has been away long enough.
    mutating func expireAllowOnce(now: Double) {
        if let end = allowOnceDeadline, now >= end { setGrant(.notDetermined) }
    }
}
