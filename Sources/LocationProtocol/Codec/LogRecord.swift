import LocationValues

/// One line of a client's coordinate log (docs/protocol.md, "Log records"), both directions.
///
/// ```
/// {"time":"2026-03-14T23:50:01.000Z","lat":35.6811990,"lon":139.7670669,"alt":40.0,"hAcc":17.1,
///  "vAcc":27.6,"speed":0.26,"course":90.0,"mode":3,"sats":8,"device":"/dev/ttyUSB0","accuracy":"full",
///  "client":"logger"}
/// ```
///
/// `device` names the receiver the fix came from (gpsd's TPV `device`, an NMEA
/// source's path); records written before receivers were named have none, and
/// are read as such.
///
/// Precision written (see docs/protocol.md, "Log records"): `lat`/`lon`
/// exactly 7 decimals (about 1 cm); `alt`, `hAcc`, `vAcc`, `speed`, `course`
/// rounded to 3 decimals (mm, mm/s, 0.001°: finer than gpsd reports any of
/// them except course, and far finer than any receiver's accuracy) with
/// trailing zeros trimmed to one decimal; `sats` an integer. Unknown values
/// are left out, never `null`.
public struct LogRecord: Sendable, Hashable {
    /// UTC seconds since 1970 (the fix's own time), written with milliseconds.
    public var time: Double
    /// Degrees north, WGS-84.
    public var latitude: Double
    /// Degrees east, WGS-84.
    public var longitude: Double
    /// Metres above mean sea level, when known.
    public var altitude: Double?
    /// Horizontal error estimate in metres, when known.
    public var horizontalError: Double?
    /// Vertical error estimate in metres, when known.
    public var verticalError: Double?
    /// Speed over ground in m/s, when known.
    public var speed: Double?
    /// Course over ground in degrees true, when known.
    public var course: Double?
    /// 2D or 3D (any gpsd mode is accepted when parsing).
    public var mode: FixMode
    /// Satellites used in the solution, when known.
    public var satellites: Int?
    /// The receiver the fix came from, when named.
    public var device: String?
    /// Full or reduced (obfuscated) accuracy.
    public var accuracy: DeliveredAccuracy
    /// The client the fix was delivered to.
    public var client: String

    /// Decimals written for `lat` and `lon`.
    public static let coordinateDecimals = 7
    /// Most decimals written for `alt`, `hAcc`, `vAcc`, `speed`, `course`.
    public static let measurementDecimals = 3

    /// A record from its parts.
    public init(
        time: Double, latitude: Double, longitude: Double, altitude: Double? = nil, horizontalError: Double? = nil,
        verticalError: Double? = nil, speed: Double? = nil, course: Double? = nil, mode: FixMode = .threeD,
        satellites: Int? = nil, device: String? = nil, accuracy: DeliveredAccuracy = .full, client: String
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalError = horizontalError
        self.verticalError = verticalError
        self.speed = speed
        self.course = course
        self.mode = mode
        self.satellites = satellites
        self.device = device
        self.accuracy = accuracy
        self.client = client
    }

    /// The record for a delivery, or `nil` if the delivered fix has no time,
    /// no finite position in range, or a time outside years 0000–9999 (the
    /// engine never delivers such a fix; this keeps a bad one out of a log).
    /// Non-finite optional values become unknown.
    public init?(delivery: Delivery) {
        self.init(fix: delivery.fix, accuracy: delivery.accuracy, client: delivery.client)
    }

    /// The record of `fix` delivered to `client` at `accuracy` (see `init?(delivery:)`), without
    /// making a `Delivery` first: the log fan-out formats one per fix.
    public init?(fix: Fix, accuracy: DeliveredAccuracy, client: String) {
        guard let time = Self.writableTime(of: fix) else { return nil }
        self.init(
            time: time, latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude.finite,
            horizontalError: fix.horizontalError.finite, verticalError: fix.verticalError.finite,
            speed: fix.speed.finite, course: fix.course.finite, mode: fix.mode,
            satellites: fix.satellitesUsed.flatMap { $0 >= 0 ? $0 : nil }, device: fix.device,
            accuracy: accuracy,
            client: client)
    }

    /// The fix's time when the fix can be a record: a time in years 0000–9999 and a finite
    /// position in range; else `nil`.
    private static func writableTime(of fix: Fix) -> Double? {
        guard let time = fix.time, UTCTime.isWritable(time), fix.latitude.isFinite, fix.longitude.isFinite,
            abs(fix.latitude) <= 90, abs(fix.longitude) <= 180
        else { return nil }
        return time
    }

    /// The fix this record describes.
    public var fix: Fix {
        Fix(
            time: time, mode: mode, latitude: latitude, longitude: longitude, altitude: altitude,
            horizontalError: horizontalError, verticalError: verticalError, speed: speed, course: course,
            satellitesUsed: satellites, device: device)
    }

    /// The delivery this record describes.
    public var delivery: Delivery { Delivery(client: client, fix: fix, accuracy: accuracy) }

    /// The record's line: UTF-8 JSON ending in `\n`.
    public func line() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(200)
        append(to: &out)
        out.append(0x0A)
        return out
    }

    /// The record's line as a `String`, ending in `\n`.
    public var text: String { String(decoding: line(), as: UTF8.self) }

    /// Appends the JSON object (no newline) to `out`.
    public func append(to out: inout [UInt8]) {
        appendLinePrefix(to: &out)
        ByteText.appendJSONString(client, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the line up to the client's name — `{"time":…,"accuracy":"full","client":`
    /// — which is the same for every client a fix goes to at one accuracy:
    /// a carrier formats it once per fix and accuracy and ends it per client
    /// with `lineEnding(client:)`.
    public func appendLinePrefix(to out: inout [UInt8]) {
        Self.appendLinePrefix(members, device: device, accuracy: accuracy, to: &out)
    }

    /// The record's members up to `sats`.
    private var members: Members {
        Members(
            time: time, latitude: latitude, longitude: longitude, altitude: altitude,
            horizontalError: horizontalError, verticalError: verticalError, speed: speed, course: course,
            mode: mode, satellites: satellites)
    }

    /// `appendLinePrefix` of the record of `fix` delivered at `accuracy`, written from the fix
    /// itself: false, and nothing appended, when the fix cannot be a record (`init?(fix:…)`).
    /// The log fan-out formats each fix so, without making a record (copying the fix's values and
    /// strings into one cost about 1,000 instructions a fix; docs/performance.md).
    public static func appendLinePrefix(of fix: Fix, accuracy: DeliveredAccuracy, to out: inout [UInt8]) -> Bool {
        guard let time = writableTime(of: fix) else { return false }
        appendLinePrefix(
            Members(
                time: time, latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude,
                horizontalError: fix.horizontalError, verticalError: fix.verticalError, speed: fix.speed,
                course: fix.course, mode: fix.mode, satellites: fix.satellitesUsed.flatMap { $0 >= 0 ? $0 : nil }),
            device: fix.device, accuracy: accuracy, to: &out)
        return true
    }

    private static func appendLinePrefix(
        _ members: Members, device: String?, accuracy: DeliveredAccuracy, to out: inout [UInt8]
    ) {
        ByteCursor.append(to: &out, capacity: sharedMembersCapacity + 1) { cursor in
            cursor.put(UInt8(ascii: "{"))
            members.write(to: &cursor)
        }
        appendDeviceAndAccuracy(device: device, accuracy: accuracy, to: &out)
    }

    /// What ends a line begun by `appendLinePrefix`: the client's name as a
    /// JSON string, `}` and `\n`.
    public static func lineEnding(client: String) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.appendJSONString(client, to: &out)
        out.append(UInt8(ascii: "}"))
        out.append(0x0A)
        return out
    }

    /// Appends the object's members without braces, so a location event can
    /// share them after its own `"event":"location",`.
    func appendMembers(to out: inout [UInt8]) {
        let members = self.members
        ByteCursor.append(to: &out, capacity: Self.sharedMembersCapacity) { members.write(to: &$0) }
        Self.appendDeviceAndAccuracy(device: device, accuracy: accuracy, to: &out)
        ByteText.appendJSONString(client, to: &out)
    }

    /// `,"device":"…"` (when named; a path of any length, escaped, so outside the fixed-size cursor),
    /// then `,"accuracy":"…","client":`.
    /// (The constant parts are `StaticString`s, copied as bytes: the generic `String.UTF8View`
    /// appends they were cost 650 instructions a record.)
    private static func appendDeviceAndAccuracy(device: String?, accuracy: DeliveredAccuracy, to out: inout [UInt8]) {
        if let device {
            ByteText.append(#","device":"# as StaticString, to: &out)
            ByteText.appendJSONString(device, to: &out)
        }
        switch accuracy {
        case .full: ByteText.append(#","accuracy":"full","client":"# as StaticString, to: &out)
        case .reduced: ByteText.append(#","accuracy":"reduced","client":"# as StaticString, to: &out)
        }
    }

    /// Room for the longest `Members.write` can write: 325 bytes, with
    /// every member present and every number at its longest (24 bytes of
    /// `-1.7976931348623157e+308`; a position in range and receiver-sized
    /// measurements are far shorter).
    private static let sharedMembersCapacity = 384

    /// The members up to `sats` (those of fixed size), as plain values: written alike from a
    /// record and from a fix.
    private struct Members {
        var time: Double
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var horizontalError: Double?
        var verticalError: Double?
        var speed: Double?
        var course: Double?
        var mode: FixMode
        var satellites: Int?

        func write(to cursor: inout ByteCursor) {
            cursor.put(#""time":""#)
            ByteText.writeUTC(time, to: &cursor)
            cursor.put(#"","lat":"#)
            LogRecord.writeCoordinate(latitude, to: &cursor)
            cursor.put(#","lon":"#)
            LogRecord.writeCoordinate(longitude, to: &cursor)
            LogRecord.writeMeasurement(#","alt":"#, altitude, to: &cursor)
            LogRecord.writeMeasurement(#","hAcc":"#, horizontalError, to: &cursor)
            LogRecord.writeMeasurement(#","vAcc":"#, verticalError, to: &cursor)
            LogRecord.writeMeasurement(#","speed":"#, speed, to: &cursor)
            LogRecord.writeMeasurement(#","course":"#, course, to: &cursor)
            cursor.put(#","mode":"#)
            cursor.putInteger(mode.rawValue)
            if let satellites {
                cursor.put(#","sats":"#)
                cursor.putInteger(satellites)
            }
        }
    }

    /// Writes a coordinate with `coordinateDecimals` places (a non-finite one as 0).
    // One call site each for the coordinates and the measurements, so
    // FixedDecimal.write is inlined twice, each time with constant decimals.
    @inline(never)
    private static func writeCoordinate(_ value: Double, to cursor: inout ByteCursor) {
        FixedDecimal.write(value.isFinite ? value : 0, decimals: coordinateDecimals, to: &cursor)
    }

    /// Writes `,"key":value` (the key given with its punctuation), or nothing
    /// for an unknown value. Inlined, so the key's length is a constant.
    @inline(__always)
    private static func writeMeasurement(_ member: StaticString, _ value: Double?, to cursor: inout ByteCursor) {
        guard let value = value.finite else { return }
        cursor.put(member)
        writeMeasurementDigits(value, to: &cursor)
    }

    /// Writes a measurement with up to `measurementDecimals` places, at least one.
    @inline(never)
    private static func writeMeasurementDigits(_ value: Double, to cursor: inout ByteCursor) {
        FixedDecimal.write(value, decimals: measurementDecimals, minimumDecimals: 1, to: &cursor)
    }
}

extension Optional where Wrapped == Double {
    /// The value if it is finite, else `nil`.
    var finite: Double? {
        guard let value = self, value.isFinite else { return nil }
        return value
    }
}
