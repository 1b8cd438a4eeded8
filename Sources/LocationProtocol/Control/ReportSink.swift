/// A way positions leave the daemon, as the access report names it (`"s"` of a
/// `report.jsonl` line, `sinks` of `locationctl report`): each output face
/// names the sinks it counts under, a static member here or, for a new face,
/// in an extension beside it. Lines read back keep whatever name they carry.
public struct ReportSink: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The name written to the report.
    public var rawValue: String

    /// The sink named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The name.
    public var description: String { rawValue }

    /// A client's coordinate log.
    public static let log = ReportSink(rawValue: "log")
    /// Chunks of a receiver's bytes kept in the client's raw capture (`raw_log`).
    public static let raw = ReportSink(rawValue: "raw")
    /// `location` events to `locationctl watch`.
    public static let watch = ReportSink(rawValue: "watch")
    /// Positions the client's MQTT broker acknowledged.
    public static let mqtt = ReportSink(rawValue: "mqtt")
    /// gpsd's protocol on the client's `gpsd_socket`.
    public static let gpsdSocket = ReportSink(rawValue: "gpsd_socket")
    /// gpsd's protocol on the client's `gpsd_port`.
    public static let gpsdPort = ReportSink(rawValue: "gpsd_port")
    /// NMEA sentences on the client's `nmea_socket`.
    public static let nmeaSocket = ReportSink(rawValue: "nmea_socket")
}
