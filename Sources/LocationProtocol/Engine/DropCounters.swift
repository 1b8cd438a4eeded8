/// Why a fix was not delivered to a client: the delivery step that stopped it
/// (docs/authorization.md §4).
/// Every fix the engine handles is, per client, either delivered or counted
/// under exactly one of these (the first step it fails, in step order).
public enum DropReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// Step 0: a fix of a receiver the client does not follow (its pinned receiver, or the one `best` clients follow).
    case otherReceiver = "other-receiver"
    /// Step 1: Location Services are off.
    case servicesOff = "services-off"
    /// Step 2: the effective status does not grant location (ask, never, restricted).
    case notAuthorized = "not-authorized"
    /// Step 2: granted only while in use, and not in use.
    case notInUse = "not-in-use"
    /// Step 3: not updating and no `locate` pending.
    case notUpdating = "not-updating"
    /// Step 4: no fix (mode), no time, or a value out of its domain.
    case unusable
    /// Step 4: an epoch already delivered to this client in the current time base.
    case sameEpoch = "same-epoch"
    /// Step 5: the horizontal error estimate exceeds `desired_accuracy`.
    case accuracyGate = "accuracy-gate"
    /// Step 6: reduced accuracy delivers at most once per `reduced_interval`.
    case reducedRate = "reduced-rate"
    /// Step 7: within `distance_filter` of the last delivered position.
    case distanceFilter = "distance-filter"

    /// What `status` says, e.g. `accuracy gate`.
    public var phrase: String {
        switch self {
        case .otherReceiver: "other receiver"
        case .servicesOff: "services off"
        case .notAuthorized: "not authorized"
        case .notInUse: "not in use"
        case .notUpdating: "not updating"
        case .unusable: "unusable"
        case .sameEpoch: "same epoch"
        case .accuracyGate: "accuracy gate"
        case .reducedRate: "reduced rate limit"
        case .distanceFilter: "distance filter"
        }
    }
}

/// Per client, how many fixes each reason kept from it since the daemon started.
public struct DropCounters: Sendable, Hashable {
    private var counts: [Int]

    /// All zero.
    public init() {
        counts = Array(repeating: 0, count: DropReason.allCases.count)
    }

    /// Fixes kept back for `reason`.
    public subscript(reason: DropReason) -> Int {
        get { counts[reason.index] }
        set { counts[reason.index] = newValue }
    }

    /// Fixes kept back for any reason.
    public var total: Int { counts.reduce(0, +) }

    /// The reasons with a non-zero count, in step order.
    public var nonZero: [(reason: DropReason, count: Int)] {
        DropReason.allCases.compactMap { counts[$0.index] > 0 ? ($0, counts[$0.index]) : nil }
    }

    /// `accuracy gate 120, distance filter 4`; `none` when nothing was kept back.
    public var summary: String {
        let parts = nonZero.map { "\($0.reason.phrase) \($0.count)" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

extension DropReason {
    /// Position in `allCases` (the counters' storage index).
    @inline(__always)
    var index: Int {
        switch self {
        case .otherReceiver: 0
        case .servicesOff: 1
        case .notAuthorized: 2
        case .notInUse: 3
        case .notUpdating: 4
        case .unusable: 5
        case .sameEpoch: 6
        case .accuracyGate: 7
        case .reducedRate: 8
        case .distanceFilter: 9
        }
    }
}
