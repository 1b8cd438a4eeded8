import LocationCodecs
import LocationCore
import LocationValues

/// One line gpsd sent, as the CGPS shim flattened it.
enum GPSDReport: Sendable, Hashable {
    /// Time-position-velocity.
    case tpv(GPSDFixReport)
    /// Satellite view: counts `nil` when that SKY listed no satellites, DOPs when it had them;
    /// `device` the receiver it describes (`nil` when the SKY names none).
    case sky(SkyView, device: String?)
    /// gpsd's greeting, with its release (e.g. `3.22`).
    case version(release: String)
    /// How many receivers gpsd has, and their paths (those the shim could copy: `cgps_report`).
    case devices(count: Int, paths: [String])
    /// A receiver was opened (`activated`) or closed.
    case device(path: String, activated: Bool)
    /// gpsd confirmed our watch: the link is streaming.
    case watch
    /// gpsd complained about something we sent.
    case error(message: String)
    /// A line the shim would not unpack: libgps could loop forever on it
    /// ("class" named twice, or not at the start). Counted, never read.
    case unreadable
    /// A report class we do not use.
    case other
}
