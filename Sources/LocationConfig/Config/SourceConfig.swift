/// Where fixes come from (`[source]`).
public enum SourceConfig: Sendable, Hashable, CustomStringConvertible {
    /// gpsd at `host`:`port`, through libgps.
    case gpsd(host: String, port: Int)
    /// NMEA straight from a serial device (or a file or FIFO) at `baud`.
    case nmea(device: String, baud: Int)

    /// gpsd's own default: `127.0.0.1:2947`.
    public static let defaultGPSD = SourceConfig.gpsd(host: "127.0.0.1", port: 2947)
    /// The serial speed when `baud` is not given.
    public static let defaultBaud = 9600
    /// The serial speeds `baud` accepts.
    public static let bauds = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

    /// `gpsd at 127.0.0.1:2947` or `NMEA from /dev/ttyACM0 at 9600 baud`.
    public var description: String {
        switch self {
        case .gpsd(let host, let port):
            host.contains(":") ? "gpsd at [\(host)]:\(port)" : "gpsd at \(host):\(port)"
        case .nmea(let device, let baud): "NMEA from \(device) at \(baud) baud"
        }
    }
}
