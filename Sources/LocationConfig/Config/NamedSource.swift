/// One source of fixes as the configuration names it: `[source]` (named `default`) or
/// `[source.NAME]`, with where its fixes come from (docs/sources.md, "Several sources").
public struct NamedSource: Sendable, Hashable, CustomStringConvertible {
    /// The name `[source]` has: `[source]` and `[source.default]` are one source.
    public static let defaultName = "default"
    /// The longest NAME of `[source.NAME]`.
    public static let maximumNameLength = 32

    /// `default` for `[source]`, else NAME of `[source.NAME]`.
    public var name: String
    /// Where its fixes come from.
    public var endpoint: SourceConfig

    /// A source called `name` reading `endpoint`.
    public init(name: String = NamedSource.defaultName, _ endpoint: SourceConfig) {
        self.name = name
        self.endpoint = endpoint
    }

    /// `gpsd 127.0.0.1:2947`, `gpsd [::1]:2947`, `nmea /dev/ttyACM0`: how status, the status line and
    /// each receiver's `source` name it (one per endpoint: two sources never share one).
    public var description: String {
        switch endpoint {
        case .gpsd(let host, let port): host.utf8.contains(UInt8(ascii: ":")) ? "gpsd [\(host)]:\(port)" : "gpsd \(host):\(port)"
        case .nmea(let device, _): "nmea \(device)"
        }
    }

    /// `[source]` or `[source.NAME]`: the section it comes from.
    public var section: String { name == Self.defaultName ? "source" : "source.\(name)" }

    /// Whether `name` may follow `[source.`: 1 to 32 letters, digits, `-` or `_`.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameLength && name.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
        }
    }

    /// The sources as the start line and systemd's status line name them: one source by its
    /// description alone (as before there were several), several as `gpsd 127.0.0.1:2947 (default),
    /// nmea /dev/ttyUSB1 (gnss)`.
    public static func names(_ sources: [NamedSource]) -> String {
        if sources.count == 1 { return sources[0].description }
        return sources.map { "\($0.description) (\($0.name))" }.joined(separator: ", ")
    }
}
