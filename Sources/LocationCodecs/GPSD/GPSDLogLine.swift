import LocationValues

/// One line of a gpsd JSON log (what `gpspipe -w` writes: one report object
/// per line), told by its class: a SKY becomes its count of satellites used,
/// a DEVICE whether a receiver was closed. A TPV is only named here: its
/// values are read by the live source's own decoder (the CGPS shim's `tpv.c`,
/// and libgps for a TPV outside the shape gpsd writes), which `GPSDLogParser`
/// is handed as its `TPVReader`, so that a TPV recorded and the same TPV live
/// are read by one decoder. `"class"` may stand anywhere in the object;
/// members locationd does not read are skipped, whatever they hold.
public enum GPSDLogLine: Sendable, Hashable {
    /// Time-position-velocity: read by `GPSDLogParser.TPVReader`, not here.
    case tpv
    /// Satellite view: the satellites the list marks used (`nil` without a list, as libgps).
    case sky(device: String?, satellitesUsed: Int?)
    /// A receiver opened (`activated` a time) or closed (`activated` 0).
    case device(path: String, activated: Bool)
    /// gpsd's greeting: a new connection begins.
    case version
    /// A report of another class (DEVICES, WATCH, GST, PPS, TOFF, ATT, AIS…), not used.
    case other(className: String)
    /// Blank, or not JSON but expected beside it: an NMEA sentence (`gpspipe -w -r`) or a `#` comment.
    case notJSON(NotJSON)
    /// Not a gpsd report: why, in words that quote nothing of the line (it may hold a position).
    case unreadable(reason: String)

    /// The lines of a log that are not JSON and not an error.
    public enum NotJSON: Sendable, Hashable {
        /// Nothing but white space.
        case blank
        /// An NMEA sentence (`$` or `!`).
        case nmea
        /// A `#` comment.
        case comment
    }

    /// The longest class name kept as it is; longer ones are counted as unreadable.
    public static let maximumClassLength = 16

    /// Decodes one line (without its line end; a CR before it is white space).
    public static func decode(_ line: UnsafeRawBufferPointer) -> GPSDLogLine {
        guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else {
            return .notJSON(.blank)
        }
        switch line[first] {
        case UInt8(ascii: "$"), UInt8(ascii: "!"): return .notJSON(.nmea)
        case UInt8(ascii: "#"): return .notJSON(.comment)
        case UInt8(ascii: "{"): break
        default: return .unreadable(reason: "not a JSON object")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return .unreadable(reason: "not JSON (\(error))")
        }
        guard case .object = value else { return .unreadable(reason: "not a JSON object") }
        guard let className = value["class"]?.stringValue else {
            return .unreadable(reason: "no \"class\" naming the report")
        }
        do throws(GPSDLogLineError) {
            switch className {
            case "TPV": return .tpv
            case "SKY": return try sky(value)
            case "DEVICE": return try device(value)
            case "VERSION": return .version
            default:
                guard !className.isEmpty, className.utf8.count <= maximumClassLength,
                    className.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F })
                else { return .unreadable(reason: "\"class\" is not a report class") }
                return .other(className: className)
            }
        } catch {
            return .unreadable(reason: "\(className) \(error.reason)")
        }
    }

    /// The longest receiver path read, as the live source's (the CGPS shim's buffer, less its NUL).
    public static let maximumDeviceLength = 127

    /// A report's `device`: `nil` when it names none.
    private static func receiver(_ object: JSONValue) throws(GPSDLogLineError) -> String? {
        guard let path = try string(object, "device"), !path.isEmpty else { return nil }
        guard path.utf8.count <= maximumDeviceLength else {
            throw GPSDLogLineError("\"device\" is longer than \(maximumDeviceLength) bytes")
        }
        return path
    }

    private static func sky(_ object: JSONValue) throws(GPSDLogLineError) -> GPSDLogLine {
        let named = try receiver(object)
        var used: Int?
        switch object["satellites"] {
        case nil, .null?: break
        case .array(let satellites)?:
            // As libgps: both counts come from the list, and a SKY without one reports neither.
            var count = 0
            for satellite in satellites {
                guard case .object = satellite else { throw GPSDLogLineError("\"satellites\" holds a non-object") }
                if satellite["used"]?.boolValue == true { count += 1 }
            }
            if !satellites.isEmpty { used = count }
        default:
            throw GPSDLogLineError("\"satellites\" is not an array")
        }
        return .sky(device: named, satellitesUsed: used)
    }

    private static func device(_ object: JSONValue) throws(GPSDLogLineError) -> GPSDLogLine {
        guard let path = try string(object, "path"), !path.isEmpty else { return .other(className: "DEVICE") }
        // gpsd writes "activated":0 for a receiver it closed, its opening time for one it opened.
        switch object["activated"] {
        case .number(let n)?: return .device(path: path, activated: n != 0)
        case .string?: return .device(path: path, activated: true)
        default: return .other(className: "DEVICE")
        }
    }

    private static func string(_ object: JSONValue, _ key: String) throws(GPSDLogLineError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw GPSDLogLineError("\"\(key)\" is not a string")
        }
    }
}

/// Why a report's member cannot be read (the report's class goes before it).
struct GPSDLogLineError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
