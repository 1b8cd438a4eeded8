import LocationProtocol

/// A client's accuracy authorization as the engine holds it: the Precise
/// switch, or a temporary full-accuracy grant on top of a switch that is off
/// (so "full and temporary full" cannot be written down). The grant's end is
/// TemporaryFullAccuracy.swift's rule.
enum Accuracy: Sendable, Hashable {
    /// The Precise switch is on.
    case full
    /// The Precise switch is off: approximate location (docs/authorization.md §6).
    case reduced
    /// The switch is off, but full accuracy was granted for `purpose`; `until` is when it ends if the
    /// client stays out of use (`nil` while it is in use).
    case temporaryFull(purpose: String, until: Double?)

    /// The Precise switch in a position.
    init(precise: Bool) {
        self = precise ? .full : .reduced
    }

    /// The Precise switch (what `state.json` keeps: a temporary grant ends with the daemon).
    var preciseSwitch: Bool {
        if case .full = self { return true }
        return false
    }

    /// Whether fixes go out at full accuracy (permanent or temporary).
    var deliversFull: Bool {
        if case .reduced = self { return false }
        return true
    }

    /// As clients and `status` see it.
    var authorization: AccuracyAuthorization {
        switch self {
        case .full: .full
        case .reduced: .reduced
        case .temporaryFull(let purpose, _): .temporaryFull(purpose: purpose)
        }
    }
}
