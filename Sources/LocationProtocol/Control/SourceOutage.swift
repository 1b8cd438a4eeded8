import LocationValues

/// The source's outage as it stands, for `status` (#8: status says only what is true, with
/// numbers): how long it has been without gpsd or its NMEA device, the attempts to connect or
/// open that failed, and the waits between them (gpsd: `ReconnectBackoff`, 0.125 s doubling to
/// the 0.75 s cap; a device: 0.25 s doubling to 5 s). Never a coordinate.
public struct SourceOutage: Sendable, Hashable {
    /// Connection attempts made in this outage, all failed.
    public var attempts: Int
    /// Seconds since the outage began (the daemon's monotonic clock).
    public var seconds: Double
    /// Waits between attempts so far, the one under way included.
    public var waits: Int
    /// The longest of them, in seconds.
    public var longestWait: Double
    /// The one under way (or the last), in seconds.
    public var lastWait: Double

    /// An outage from its parts.
    public init(attempts: Int, seconds: Double, waits: Int, longestWait: Double, lastWait: Double) {
        self.attempts = attempts
        self.seconds = seconds
        self.waits = waits
        self.longestWait = longestWait
        self.lastWait = lastWait
    }

    /// `{"attempts":9,"seconds":5.2,"waits":9,"longestWait":0.75,"lastWait":0.75}`.
    public var json: JSONValue {
        .object([
            ("attempts", .number(Double(attempts))), ("seconds", .number(seconds.isFinite ? seconds : 0)),
            ("waits", .number(Double(waits))), ("longestWait", .number(longestWait)), ("lastWait", .number(lastWait)),
        ])
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "outage")
        do throws(FieldReader.FieldError) {
            self.init(
                attempts: try f.optionalInt("attempts") ?? 0, seconds: try f.optionalNumber("seconds") ?? 0,
                waits: try f.optionalInt("waits") ?? 0, longestWait: try f.optionalNumber("longestWait") ?? 0,
                lastWait: try f.optionalNumber("lastWait") ?? 0)
        } catch {
            throw error.decodeError
        }
    }

    /// `9 attempts failed in 5 s; waits between them at most 0.75 s`.
    public var summary: String {
        let tried = "\(attempts) attempt\(attempts == 1 ? "" : "s") failed in \(TextFormat.duration(seconds))"
        return "\(tried); waits between them at most \(Self.seconds(longestWait)) s"
    }

    static func seconds(_ value: Double) -> String {
        let ms = (value * 1000).rounded() / 1000
        return ms.rounded() == ms ? "\(Int(ms))" : "\(ms)"
    }
}
