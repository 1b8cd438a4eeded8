import LocationValues

/// What the source has read since the daemon started, for `status` (#8: every fix not
/// delivered is counted by its reason, down to the receiver's lines). The same fields for
/// both sources — gpsd's JSON reports or an NMEA device's sentences — so a script reads one
/// shape. Counts only; never a coordinate.
public struct SourceCounts: Sendable, Hashable {
    /// Attempts to connect to gpsd or to open the device, successful or not.
    public var attempts: Int
    /// Of them, the ones that worked: gpsd confirmed the watch, or the device opened.
    public var connections: Int
    /// Lines read: gpsd's reports (every class), or complete NMEA sentences.
    public var lines: Int
    /// Of them, lines nothing was read from: gpsd lines left unread because libgps could hang
    /// on them; NMEA sentences with a bad checksum, truncated, garbled or too short.
    public var unreadable: Int
    /// Epochs handed on as fixes (any mode).
    public var fixes: Int
    /// Epochs dropped for want of a time: gpsd TPVs without one, NMEA epochs before the
    /// receiver gave a date.
    public var timeless: Int
    /// TPVs (gpsd) or sentences (NMEA) dropped because their epoch had already been handed on.
    public var late: Int

    /// Counts from their parts (all zero by default).
    public init(
        attempts: Int = 0, connections: Int = 0, lines: Int = 0, unreadable: Int = 0, fixes: Int = 0,
        timeless: Int = 0, late: Int = 0
    ) {
        self.attempts = attempts
        self.connections = connections
        self.lines = lines
        self.unreadable = unreadable
        self.fixes = fixes
        self.timeless = timeless
        self.late = late
    }

    /// `{"attempts":3,"connections":2,"lines":12034,"unreadable":1,"fixes":3600,"timeless":0,"late":2}`.
    public var json: JSONValue {
        .object([
            ("attempts", .number(Double(attempts))), ("connections", .number(Double(connections))),
            ("lines", .number(Double(lines))), ("unreadable", .number(Double(unreadable))),
            ("fixes", .number(Double(fixes))), ("timeless", .number(Double(timeless))), ("late", .number(Double(late))),
        ])
    }

    /// Reads what `json` writes (a missing count is 0).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "sourceCounts")
        do throws(FieldReader.FieldError) {
            self.init(
                attempts: try f.optionalInt("attempts") ?? 0, connections: try f.optionalInt("connections") ?? 0,
                lines: try f.optionalInt("lines") ?? 0, unreadable: try f.optionalInt("unreadable") ?? 0,
                fixes: try f.optionalInt("fixes") ?? 0, timeless: try f.optionalInt("timeless") ?? 0,
                late: try f.optionalInt("late") ?? 0)
        } catch {
            throw error.decodeError
        }
    }

    /// `read 12034 lines (1 unreadable), 3600 fixes; dropped 0 without a time, 2 late; connected 2 times in 3 attempts`.
    public var summary: String {
        "read \(Self.count(lines, "line")) (\(unreadable) unreadable), \(Self.count(fixes, "fix", "fixes")); "
            + "dropped \(timeless) without a time, \(late) late; "
            + "connected \(Self.count(connections, "time")) in \(Self.count(attempts, "attempt"))"
    }

    private static func count(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        "\(n) \(n == 1 ? one : many ?? one + "s")"
    }
}
