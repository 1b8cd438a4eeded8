import CBus
import LocationCore
import LocationProtocol
import LocationValues

/// One `org.freedesktop.GeoClue2.Client` object: its properties as the C
/// vtable reads and writes them, whose connection it is, and what it started.
/// Touched only by the bus thread.
final class GeoClueClient {
    /// `/org/freedesktop/GeoClue2/Client/N`.
    let path: String
    /// The unique name of the connection that made it; nobody else may use it.
    let owner: String
    /// The properties (the vtable's `Location`, `DesktopId`, thresholds, `Active`).
    let props: UnsafeMutablePointer<cbus_client_props>
    /// Who started it, told by the bus daemon at `Start`.
    var peer: GeoCluePeer?
    /// The engine client it started (while `started`).
    var engineClient: String?
    var started = false
    /// The portal's object only (`isPortal`): its sessions' `Start`s not yet matched by a `Stop`.
    var starts = 0
    /// What it asked at `Start` and was last signalled: what reaches it.
    var filter = GeoClueFilter()
    /// Its current Location object's path, if any.
    var current: String?
    private var nextLocation = 1

    init(path: String, owner: String) {
        self.path = path
        self.owner = owner
        props = .allocate(capacity: 1)
        props.initialize(
            to: cbus_client_props(
                location: nil, desktop_id: nil, distance_threshold: 0, time_threshold: 0,
                requested_accuracy_level: GeoClueLevel.requestedByDefault, active: 0))
    }

    deinit {
        _ = cbus_set_string(&props.pointee.location, nil)
        _ = cbus_set_string(&props.pointee.desktop_id, nil)
        props.deallocate()
    }

    /// The `DesktopId` the app set ("" for none).
    var desktopId: String { props.pointee.desktop_id.map { String(cString: $0) } ?? "" }

    /// Whether this is xdg-desktop-portal's object: the portal asks `GetClient` once per connection
    /// and starts that one object for every location session of every sandboxed app, so each
    /// `Start` is a session and the object stops with the last session's `Stop` (docs/geoclue.md,
    /// "Flatpak apps and the portal").
    var isPortal: Bool { desktopId == "xdg-desktop-portal" }

    /// The path of its next Location object.
    func nextLocationPath() -> String {
        defer { nextLocation += 1 }
        return path + "/Location/\(nextLocation)"
    }
}

/// One `org.freedesktop.GeoClue2.Location` object: one delivered position, never
/// changed, readable by its client's connection until 10 s after the next one replaced it.
final class GeoClueLocation {
    /// How long a replaced location stays readable (Qt reads it property by property after the signal).
    static let keptAfterReplaced = 10.0

    let path: String
    let owner: String
    let props: UnsafeMutablePointer<cbus_location_props>
    /// When the next one replaced it (monotonic seconds).
    var replacedAt: Double?

    /// The properties of `delivery` as GeoClue names them: unknown altitude is `-DBL_MAX`, unknown
    /// speed and heading `-1`, the time the fix's own (seconds and microseconds since 1970).
    init(path: String, owner: String, delivery: Delivery, grid: Double?, now utc: Double) {
        self.path = path
        self.owner = owner
        let fix = delivery.fix
        let time = fix.time ?? utc
        let seconds = time.rounded(.down)
        let reduced = delivery.accuracy == .reduced
        props = .allocate(capacity: 1)
        props.initialize(
            to: cbus_location_props(
                latitude: fix.latitude, longitude: fix.longitude,
                // No estimate from the receiver: no bound is claimed.
                accuracy: fix.horizontalError ?? .greatestFiniteMagnitude,
                altitude: reduced ? -.greatestFiniteMagnitude : fix.altitude ?? -.greatestFiniteMagnitude,
                speed: reduced ? -1 : fix.speed ?? -1, heading: reduced ? -1 : fix.course ?? -1, description: nil,
                timestamp_seconds: UInt64(max(0, seconds)),
                timestamp_microseconds: UInt64(max(0, min(999_999, ((time - seconds) * 1_000_000).rounded())))))
        let description =
            reduced
            ? "reduced accuracy: a cell of about \(Int(grid ?? 2000)) m, never finer (locationd)"
            : "receiver \(fix.device ?? "") (locationd)"
        _ = cbus_set_string(&props.pointee.description, description)
    }

    deinit {
        _ = cbus_set_string(&props.pointee.description, nil)
        props.deallocate()
    }
}
