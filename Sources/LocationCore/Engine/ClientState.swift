import LocationConfig
import LocationValues

/// One client inside the engine: its settings, its permission (a `Grant`, an
/// `Accuracy`, at most one `PendingPrompt`), app state and delivery state.
/// Internal; the outside sees `ClientAuthorization`, `ClientStatus` and
/// `SavedClientState`. The rules that end temporary grants live in
/// AllowOnce.swift, TemporaryFullAccuracy.swift and ProvisionalAlways.swift.
struct ClientState: Sendable {
    // What the fix path reads for every fix (docs/authorization.md §4, steps 1–7) comes first, together: with many
    // clients the loop then touches as few cache lines per client as it can.

    /// Cached from the policy: the client is locked (this overrides `grant`, which is kept).
    var restricted: Bool
    // App state.
    var inUse: Bool
    var updating: Bool
    // Permission state (docs/authorization.md §13).
    var grant: Grant
    var accuracy: Accuracy {
        didSet { deliversFull = accuracy.deliversFull && settings.desiredAccuracy != .reduced }
    }
    /// `accuracy.deliversFull`, unless the app wants the reduced position (`desired_accuracy = reduced`), kept
    /// by `accuracy`'s observer and `configure` for the fix path: reading the enum there would copy it (and
    /// its purpose string) once per client and fix.
    private(set) var deliversFull: Bool
    var locate: PendingLocate?

    // Delivery state (docs/authorization.md §4).
    /// The last epoch delivered, deliveries and drops by reason (step 4, `status`).
    var track = DeliveryTrack()
    /// Cached from `desiredAccuracy`: the largest horizontal error that passes (`infinity` for no gate).
    var accuracyLimit: Double
    /// Cached from `settings.distanceFilter`: `nil` delivers every fix.
    var distanceFilter: GeodesicThreshold?
    /// The last delivered position of the current run; `nil` when no run is going.
    var anchor: EarthPoint?
    /// Step 6's rate limit on the monotonic clock.
    var reducedLimit = ReducedRateLimit()
    /// Told `location-unknown` for the current outage (the source's, or for a pinned client its receiver's).
    var outageNotified = false
    /// Its pinned receiver (`receiver = DEVICE`) has given no usable fix for `failover` seconds: its own
    /// outage (Engine+PinnedOutage.swift).
    var pinnedOutage = false

    /// The client's settings.
    var settings: ClientSettings
    var prompt: PendingPrompt?
    /// The one always-upgrade prompt has been opened.
    var upgradePromptShown: Bool
    /// The user allowed the location button once (its one-time share prompt); later shares grant at once.
    var shareConsent: Bool
    var reduced: ReducedAccuracyState
    /// The last reduced fix delivered (already obfuscated), which a `locate` within the same reduced
    /// interval gets again; not saved, so after a restart such a locate waits for the interval.
    var lastReducedFix: Fix?

    /// A client as the config and, if present, its saved state describe it.
    init(settings: ClientSettings, restricted: Bool, saved: SavedClientState?, seed: UInt64) {
        self.settings = settings
        self.restricted = restricted
        accuracyLimit = .infinity
        distanceFilter = nil
        inUse = settings.inUse
        updating = settings.updating
        if let saved {
            // A state file cannot make a client restricted (only the policy can), nor hold a once grant.
            grant = Grant(saved.status)
            if saved.provisional, case .always = grant { grant = .always(provisional: true) }
            accuracy = Accuracy(precise: saved.fullAccuracy)
            deliversFull = saved.fullAccuracy
            upgradePromptShown = saved.upgradePromptShown
            shareConsent = saved.shareConsent
            reduced = saved.reduced
            reduced.sanitize()
            reducedLimit = ReducedRateLimit(savedUTC: reduced.lastDelivery)
        } else {
            grant = Grant(settings.authorization)
            accuracy = Accuracy(precise: settings.precise)
            deliversFull = settings.precise
            upgradePromptShown = false
            shareConsent = false
            reduced = ReducedAccuracyState(random: Xoshiro256(seed: Self.clientSeed(seed, settings.name)))
        }
        configure(settings, restricted: restricted)
    }

    /// Takes new settings (SIGHUP) while keeping the permission and app state.
    mutating func configure(_ settings: ClientSettings, restricted: Bool) {
        // Pinned to another receiver (or to none): the old one's outage is not this client's any more.
        if settings.receiver != self.settings.receiver {
            pinnedOutage = false
            outageNotified = false
        }
        self.settings = settings
        self.restricted = restricted
        deliversFull = accuracy.deliversFull && settings.desiredAccuracy != .reduced
        accuracyLimit = settings.desiredAccuracy.limit ?? .infinity
        if accuracyLimit.isNaN { accuracyLimit = .infinity }
        if let meters = settings.distanceFilter, meters.isFinite, meters > 0 {
            distanceFilter = GeodesicThreshold(meters: meters)
        } else {
            distanceFilter = nil
        }
        // A temporary grant belongs to a grant the client can use; the policy takes that away.
        if restricted { endTemporaryFullAccuracy() }
    }

    /// Stores a grant. Temporary full accuracy ends with a grant that no longer authorizes.
    mutating func setGrant(_ new: Grant) {
        grant = new
        if !new.authorizes { endTemporaryFullAccuracy() }
    }

    /// The first-start grant and accuracy of the config (`reset`, and a client without saved state).
    var configuredGrant: Grant { Grant(settings.authorization) }

    /// What `state.json` keeps of this client.
    var saved: SavedClientState {
        SavedClientState(
            name: settings.name, status: grant.isOnce ? .ask : grant.status, provisional: grant.isProvisional,
            fullAccuracy: accuracy.preciseSwitch, upgradePromptShown: upgradePromptShown, shareConsent: shareConsent,
            reduced: reduced)
    }

    /// The earliest timer of this client (locate timeout, Allow Once, temporary full accuracy); `infinity` for none.
    var nextDeadline: Double {
        var earliest = locate?.deadline ?? .infinity
        if let d = allowOnceDeadline { earliest = min(earliest, d) }
        if let d = temporaryFullAccuracyDeadline { earliest = min(earliest, d) }
        return earliest
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

/// A pending `requestLocation()`: when it fails, and the timeout it was given (for the message).
struct PendingLocate: Sendable, Hashable {
    /// `now` at which it fails with `location-unknown`.
    var deadline: Double
    /// Its timeout in seconds.
    var timeout: Double
}
