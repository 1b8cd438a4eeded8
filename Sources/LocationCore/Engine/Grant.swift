import LocationProtocol

/// What the user has granted a client (docs/authorization.md §13), as one value whose cases
/// carry exactly what they need: a once grant exists only on while-using and
/// carries its own grace clock, provisional exists only on always, so neither
/// "once and always" nor "provisional while-using" can be written down.
///
/// `restricted` is not a grant: it is the policy's (`[policy] restricted`),
/// it overrides whatever the user granted, and that grant comes back when the
/// policy lets go. `ClientState.restricted` holds it.
enum Grant: Sendable, Hashable {
    /// `ask` (`notDetermined`): the next request opens a prompt.
    case notDetermined
    /// `never` (`denied`).
    case denied
    /// `while-using`; `temporary` for Allow Once or the location button (AllowOnce.swift).
    case whenInUse(temporary: AllowOnce?)
    /// `always`; `provisional` until the user answers the upgrade prompt (ProvisionalAlways.swift).
    case always(provisional: Bool)

    /// The grant a stored status means, without flags; `restricted` (never a stored status) reads `never`.
    init(_ status: AuthorizationStatus) {
        switch status {
        case .ask: self = .notDetermined
        case .never, .restricted: self = .denied
        case .whileUsing: self = .whenInUse(temporary: nil)
        case .always: self = .always(provisional: false)
        }
    }

    /// The status word (`ask`, `never`, `while-using`, `always`).
    var status: AuthorizationStatus {
        switch self {
        case .notDetermined: .ask
        case .denied: .never
        case .whenInUse: .whileUsing
        case .always: .always
        }
    }

    /// Allow Once or the location button.
    var isOnce: Bool {
        if case .whenInUse(temporary: .some) = self { return true }
        return false
    }

    /// Provisional always.
    var isProvisional: Bool {
        if case .always(provisional: true) = self { return true }
        return false
    }

    /// Whether it grants location at all (while-using or always, in any form).
    var authorizes: Bool {
        switch self {
        case .whenInUse, .always: true
        case .notDetermined, .denied: false
        }
    }

    /// Delivery step 2 (docs/authorization.md §4) for this grant: why a fix may not be delivered, given whether the client is
    /// in use; `nil` when it may.
    @inline(__always)
    func deliveryRefusal(inUse: Bool) -> DropReason? {
        switch self {
        case .always(let provisional): !provisional || inUse ? nil : .notInUse
        case .whenInUse: inUse ? nil : .notInUse
        case .notDetermined, .denied: .notAuthorized
        }
    }
}
