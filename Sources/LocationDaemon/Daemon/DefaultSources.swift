import LocationConfig
import LocationCore

/// The fix source for each `[source] type`: gpsd through libgps, or NMEA
/// straight from a serial device, FIFO or file.
public enum DefaultSources {
    /// The source for `config`.
    @Sendable
    public static func make(_ config: SourceConfig) -> any FixSource {
        switch config {
        case .gpsd(let host, let port): GPSDSource(host: host, port: port)
        case .nmea(let device, let baud): NMEADeviceSource(path: device, baud: baud)
        }
    }
}
