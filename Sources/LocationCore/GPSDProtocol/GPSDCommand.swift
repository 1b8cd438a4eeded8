import LocationValues

/// One request a program sends in gpsd's JSON protocol (gpsd_json(5)):
/// `?WATCH={"enable":true,"json":true};`, `?POLL;`, `?VERSION;`,
/// `?DEVICES;`. The subset locationd serves; anything else is `.unknown`
/// and answered with gpsd's `ERROR` object.
public enum GPSDCommand: Sendable, Hashable {
    /// `?WATCH;` alone (report the watch state) or with its object.
    case watch(GPSDWatch?)
    /// `?POLL;`: the last fix this program got.
    case poll
    /// `?VERSION;`.
    case version
    /// `?DEVICES;`.
    case devices
    /// `?DEVICE;` (with or without an object; devices cannot be configured here).
    case device
    /// Not a request of the subset, or malformed: the message for gpsd's `ERROR` object.
    case unknown(String)

    /// The longest request taken; gpsd's own limit is about a kilobyte.
    public static let maximumLength = 1024

    /// Parses one request, as split at `;` or a line end (without the terminator).
    /// Leading and trailing blanks are ignored; `nil` for a blank request.
    public static func parse(_ bytes: some Collection<UInt8>) -> GPSDCommand? {
        var text = Array(bytes)[...]
        while let first = text.first, isBlank(first) { text = text.dropFirst() }
        while let last = text.last, isBlank(last) { text = text.dropLast() }
        guard !text.isEmpty else { return nil }
        let shown = String(decoding: text.prefix(80), as: UTF8.self)
        guard text.first == UInt8(ascii: "?") else { return .unknown("Unrecognized request '\(shown)'") }
        let body = text.dropFirst()
        let equals = body.firstIndex(of: UInt8(ascii: "="))
        let name = String(decoding: body[..<(equals ?? body.endIndex)], as: UTF8.self)
        let argument = equals.map { body[body.index(after: $0)...] }
        switch name {
        case "WATCH":
            guard let argument else { return .watch(nil) }
            switch GPSDWatch.parse(argument) {
            case .success(let watch): return .watch(watch)
            case .failure(let refusal): return .unknown(refusal.message)
            }
        case "POLL" where argument == nil: return .poll
        case "VERSION" where argument == nil: return .version
        case "DEVICES" where argument == nil: return .devices
        case "DEVICE": return .device
        default: return .unknown("Unrecognized request '\(shown)'")
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
}

/// The object of `?WATCH=`: only `enable` changes anything here; the other
/// members are echoed so a client sees the policy it asked for.
public struct GPSDWatch: Sendable, Hashable {
    /// Start (`true`) or stop (`false`) the stream; absent means start, as gpsd.
    public var enable: Bool
    /// JSON reports asked for (locationd streams JSON whatever is asked, as gpsd does by default).
    public var json: Bool
    /// NMEA asked for (not served on the gpsd socket: the client's `nmea_socket` streams NMEA).
    public var nmea: Bool

    /// A watch from its parts.
    public init(enable: Bool = true, json: Bool = true, nmea: Bool = false) {
        self.enable = enable
        self.json = json
        self.nmea = nmea
    }

    /// Reads `{"enable":true,"json":true}`; unknown members are ignored (gpsd
    /// clients send `raw`, `scaled`, `device`… as well), wrong types refused.
    struct Refusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func parse(_ bytes: some Collection<UInt8>) -> Result<GPSDWatch, Refusal> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            return .failure(Refusal("Invalid WATCH: \(error)"))
        }
        guard value.objectValue != nil else { return .failure(Refusal("Invalid WATCH: not a JSON object")) }
        var watch = GPSDWatch()
        for (key, path) in [("enable", \GPSDWatch.enable), ("json", \.json), ("nmea", \.nmea)] {
            guard let member = value[key] else { continue }
            guard let flag = member.boolValue else { return .failure(Refusal("Invalid WATCH: \"\(key)\" must be true or false")) }
            watch[keyPath: path] = flag
        }
        if value["json"] == nil { watch.json = watch.enable }
        return .success(watch)
    }
}
