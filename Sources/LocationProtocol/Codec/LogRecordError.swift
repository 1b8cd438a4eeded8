import LocationValues

/// Why a log line is not a valid record: which field, and what was expected.
public struct LogRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, as a sentence naming the field.
    public var reason: String

    /// An error from its sentence.
    public init(_ reason: String) { self.reason = reason }

    /// The sentence.
    public var description: String { reason }
}

extension LogRecord {
    /// Parses one log line (a trailing newline is fine). Keys may come in any
    /// order and unknown keys are ignored; `null` counts as unknown for the
    /// optional fields.
    public static func parse(_ line: String) throws(LogRecordError) -> LogRecord {
        try parse(Array(line.utf8))
    }

    /// Parses one log line from its bytes.
    public static func parse(_ line: [UInt8]) throws(LogRecordError) -> LogRecord {
        let result = line.withUnsafeBytes { raw in
            Result { () throws(LogRecordError) -> LogRecord in try parse(raw) }
        }
        return try result.get()
    }

    /// Parses one log line from raw bytes (no copy).
    public static func parse(_ line: UnsafeRawBufferPointer) throws(LogRecordError) -> LogRecord {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw LogRecordError("not a JSON log record: \(error)")
        }
        return try LogRecord(json: value)
    }

    /// The record a parsed JSON object describes.
    public init(json value: JSONValue) throws(LogRecordError) {
        guard value.objectValue != nil else { throw LogRecordError("a log record must be a JSON object") }
        guard let timeText = value["time"] else { throw LogRecordError(#"missing "time""#) }
        guard let text = timeText.stringValue, let time = UTCTime.parse(text), UTCTime.isWritable(time) else {
            throw LogRecordError(#""time" must be ISO 8601 UTC text like "2026-03-14T23:50:01.000Z""#)
        }
        let latitude = try Self.number(value, "lat", range: -90...90, unit: "degrees north")
        let longitude = try Self.number(value, "lon", range: -180...180, unit: "degrees east")
        guard let modeValue = value["mode"] else { throw LogRecordError(#"missing "mode""#) }
        guard let modeNumber = modeValue.intValue, let mode = FixMode(rawValue: modeNumber) else {
            throw LogRecordError(#""mode" must be 0, 1, 2 or 3 (gpsd's fix mode; a delivered fix is 2 or 3)"#)
        }
        guard let accuracyValue = value["accuracy"] else { throw LogRecordError(#"missing "accuracy""#) }
        guard let word = accuracyValue.stringValue, let accuracy = DeliveredAccuracy(rawValue: word) else {
            throw LogRecordError(#""accuracy" must be "full" or "reduced""#)
        }
        guard let clientValue = value["client"] else { throw LogRecordError(#"missing "client""#) }
        guard let client = clientValue.stringValue, !client.isEmpty else {
            throw LogRecordError(#""client" must be a non-empty string"#)
        }
        var satellites: Int?
        if let sats = value["sats"], sats != .null {
            guard let n = sats.intValue, n >= 0 else {
                throw LogRecordError(#""sats" must be a whole number of satellites, 0 or more"#)
            }
            satellites = n
        }
        // Absent in records written before receivers were named.
        var device: String?
        if let member = value["device"], member != .null {
            guard let text = member.stringValue else { throw LogRecordError(#""device" must be a string when present"#) }
            device = text
        }
        self.init(
            time: time, latitude: latitude, longitude: longitude,
            altitude: try Self.optionalNumber(value, "alt"),
            horizontalError: try Self.optionalNumber(value, "hAcc"),
            verticalError: try Self.optionalNumber(value, "vAcc"),
            speed: try Self.optionalNumber(value, "speed"),
            course: try Self.optionalNumber(value, "course"),
            mode: mode, satellites: satellites, device: device, accuracy: accuracy, client: client)
    }

    private static func number(
        _ object: JSONValue, _ key: String, range: ClosedRange<Double>, unit: String
    ) throws(LogRecordError) -> Double {
        guard let member = object[key] else { throw LogRecordError("missing \"\(key)\"") }
        guard let n = member.numberValue, range.contains(n) else {
            throw LogRecordError(
                "\"\(key)\" must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)) (\(unit))")
        }
        return n
    }

    private static func optionalNumber(_ object: JSONValue, _ key: String) throws(LogRecordError) -> Double? {
        guard let member = object[key], member != .null else { return nil }
        guard let n = member.numberValue else { throw LogRecordError("\"\(key)\" must be a number when present") }
        return n
    }
}
