/// One client inside the engine: its settings, permission state, app state
/// and delivery state. Internal; the outside sees `ClientAuthorization`,
/// `ClientStatus` and `SavedClientState`.
struct ClientState: Sendable {
    /// The client's settings.
    var settings: ClientSettings
    /// Cached from the policy: the client is locked.
    var restricted: Bool
    /// Cached from `desiredAccuracy`: the largest horizontal error that passes (`infinity` for no gate).
    var accuracyLimit: Double
    /// Cached from `distanceFilter`: `nil` delivers every fix.
    var filter: GeodesicThreshold?

    // Permission state (§3.1). `stored` is never `.restricted`: that comes from policy only.
    var stored: AuthorizationStatus
    var once = false
    var provisional: Bool
    /// The Precise Location switch.
    var fullAccuracy: Bool
    /// Temporary full accuracy, by purpose key.
    var temporaryPurpose: String?
    var upgradePromptShown: Bool
    /// The user allowed the location button once (its one-time share prompt); later shares grant at once.
    var shareConsent: Bool
    var prompt: Prompt?

    // App state.
    var inUse: Bool
    var updating: Bool
    var locateDeadline: Double?
    var locateTimeout = 0.0
    /// When Allow Once ends if the client stays out of use.
    var onceDeadline: Double?
    /// When temporary full accuracy ends if the client stays out of use.
    var fullDeadline: Double?

    // Delivery state (§3.4).
    /// The last delivered position of the current run; `nil` when no run is going.
    var anchor: EarthPoint?
    /// The last epoch delivered, deliveries and drops by reason (step 4, `status`).
    var track = DeliveryTrack()
    /// Step 6's rate limit on the monotonic clock.
    var reducedLimit = ReducedRateLimit()
    /// Told `location-unknown` for the current outage.
    var outageNotified = false
    var reduced: ReducedAccuracyState
    /// The last reduced fix delivered (already obfuscated), which a `locate` within the same reduced
    /// interval gets again; not saved, so after a restart such a locate waits for the interval.
    var lastReducedFix: Fix?

    /// A client as the config and, if present, its saved state describe it.
    init(settings: ClientSettings, restricted: Bool, saved: SavedClientState?, seed: UInt64) {
        self.settings = settings
        self.restricted = restricted
        accuracyLimit = .infinity
        filter = nil
        inUse = settings.inUse
        updating = settings.updating
        if let saved {
            // A state file cannot make a client restricted: only the policy can.
            stored = saved.status == .restricted ? .never : saved.status
            provisional = saved.provisional && stored == .always
            fullAccuracy = saved.fullAccuracy
            upgradePromptShown = saved.upgradePromptShown
            shareConsent = saved.shareConsent
            reduced = saved.reduced
            reduced.sanitize()
            reducedLimit = ReducedRateLimit(savedUTC: reduced.lastDelivery)
        } else {
            stored = settings.authorization == .restricted ? .never : settings.authorization
            provisional = false
            fullAccuracy = settings.precise
            upgradePromptShown = false
            shareConsent = false
            reduced = ReducedAccuracyState(random: Xoshiro256(seed: Self.clientSeed(seed, settings.name)))
        }
        configure(settings, restricted: restricted)
    }

    /// Takes new settings (SIGHUP) while keeping the permission and app state.
    mutating func configure(_ settings: ClientSettings, restricted: Bool) {
        self.settings = settings
        self.restricted = restricted
        accuracyLimit = settings.desiredAccuracy.limit ?? .infinity
        if accuracyLimit.isNaN { accuracyLimit = .infinity }
        if let meters = settings.distanceFilter, meters.isFinite, meters > 0 {
            filter = GeodesicThreshold(meters: meters)
        } else {
            filter = nil
        }
    }

    /// The accuracy authorization.
    var accuracy: AccuracyAuthorization {
        if fullAccuracy { return .full }
        if let temporaryPurpose { return .temporaryFull(purpose: temporaryPurpose) }
        return .reduced
    }

    /// Whether fixes go out at full accuracy (permanent or temporary).
    var deliversFull: Bool { fullAccuracy || temporaryPurpose != nil }

    /// Whether the stored status grants location at all.
    var storedAuthorized: Bool { stored == .always || stored == .whileUsing }

    /// What `state.json` keeps of this client.
    var saved: SavedClientState {
        SavedClientState(
            name: settings.name, status: once ? .ask : stored, provisional: provisional, fullAccuracy: fullAccuracy,
            upgradePromptShown: upgradePromptShown, shareConsent: shareConsent, reduced: reduced)
    }

    /// A per-client seed from the engine's seed and the client's name (FNV-1a, stable across runs,
    /// unlike `Hasher`), so two clients never share an offset.
    static func clientSeed(_ seed: UInt64, _ name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var mixer = SplitMix64(state: seed ^ hash)
        return mixer.next()
    }
}
