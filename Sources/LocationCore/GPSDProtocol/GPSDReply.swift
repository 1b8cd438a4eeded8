import LocationProtocol
import LocationValues

/// The objects locationd sends in gpsd's JSON protocol (gpsd_json(5)), one
/// per line ending in `\r\n` as gpsd writes them (the python `gps` module
/// takes only lines that end so). The subset served: `VERSION`, `DEVICES`,
/// `WATCH`, `TPV`, `SKY`, `POLL` and `ERROR`.
///
/// A `TPV` is made from the client's log record, so a program sees exactly
/// what the log holds, at the log's precision (7 decimals of a degree, 3 of
/// a metre): `time`, `mode`, `lat`, `lon`, `alt` and `altMSL` (the log's
/// altitude is above mean sea level), `eph`, `epv`, `speed`, `track` — each
/// only when the delivery has it. A reduced-accuracy delivery has an
/// obfuscated position, `eph` of at least the grid, and no altitude, speed
/// or track: the engine removed them. A `TPV`'s `device` is the receiver's
/// path as gpsd names it (the log's `device`; `locationd:NAME` for an unnamed
/// receiver), reduced or not: a path is no coordinate.
public enum GPSDReply {
    /// The version of gpsd's JSON protocol the objects here are written to (gpsd 3.22's:
    /// the objects and members this file writes are in it, and a later gpsd reads them).
    public static let protocolMajor = 3
    /// The minor protocol version of those objects.
    public static let protocolMinor = 14

    /// The device name programs see for `client` while no named receiver is known: `locationd:NAME`.
    public static func deviceName(client: String) -> String { "locationd:\(client)" }

    /// The device a record's `TPV` names: its receiver's path as gpsd names it (the log's `device`), or
    /// `locationd:NAME` for a fix of an unnamed receiver.
    public static func deviceName(of record: LogRecord) -> String {
        deviceName(receiver: record.device, client: record.client)
    }

    /// `receiver` (a fix's or sky view's `device`) when it names one, else `locationd:CLIENT`.
    public static func deviceName(receiver: String?, client: String) -> String {
        if let receiver, !receiver.isEmpty { return receiver }
        return deviceName(client: client)
    }

    /// A receiver a client's socket has served fixes from: its path and when it first did (UTC seconds).
    public struct Device: Sendable, Hashable {
        /// The receiver's path (`locationd:NAME` for an unnamed one).
        public var path: String
        /// When the client's socket first served one of its fixes.
        public var activated: Double

        /// A device from its parts.
        public init(path: String, activated: Double) {
            self.path = path
            self.activated = activated
        }
    }

    /// `{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}`: the
    /// `release` of the gpsd locationd stands in for (the installed libgps's, which gpsd's clients
    /// were built with and compare theirs to: cgps warns on any other), as `rev` too.
    public static func version(release: String) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.append(#"{"class":"VERSION","release":"#, to: &out)
        ByteText.appendJSONString(release, to: &out)
        ByteText.append(#","rev":"#, to: &out)
        ByteText.appendJSONString(release, to: &out)
        ByteText.append(#","proto_major":"#, to: &out)
        ByteText.append(protocolMajor, to: &out)
        ByteText.append(#","proto_minor":"#, to: &out)
        ByteText.append(protocolMinor, to: &out)
        return finish(&out)
    }

    /// `DEVICES` with the receivers a client's socket has served fixes from, in the order it first
    /// did; while there are none, the one device `locationd:NAME`, `activated` when the program server
    /// started (UTC seconds).
    public static func devices(client: String, receivers: [Device] = [], activated: Double) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.append(#"{"class":"DEVICES","devices":["#, to: &out)
        let listed = receivers.isEmpty ? [Device(path: deviceName(client: client), activated: activated)] : receivers
        for (n, device) in listed.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            appendDevice(device, to: &out)
        }
        ByteText.append("]", to: &out)
        return finish(&out)
    }

    /// `DEVICE`, the notice gpsd sends when a receiver appears: here, when a client's socket serves the
    /// first fix of a receiver.
    public static func device(_ device: Device) -> [UInt8] {
        var out: [UInt8] = []
        appendDevice(device, to: &out)
        out.append(contentsOf: [0x0D, 0x0A])
        return out
    }

    /// `{"class":"WATCH","enable":…,"json":…,…}` as gpsd answers a watch.
    public static func watch(_ watch: GPSDWatch) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.append(#"{"class":"WATCH","enable":"#, to: &out)
        ByteText.append(watch.enable ? "true" : "false", to: &out)
        ByteText.append(#","json":"#, to: &out)
        ByteText.append(watch.enable && watch.json ? "true" : "false", to: &out)
        ByteText.append(#","nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false"#, to: &out)
        return finish(&out)
    }

    /// `{"class":"ERROR","message":"…"}`.
    public static func error(_ message: String) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.append(#"{"class":"ERROR","message":"#, to: &out)
        ByteText.appendJSONString(message, to: &out)
        return finish(&out)
    }

    /// One `TPV` for a delivered fix.
    public static func tpv(_ record: LogRecord) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(220)
        appendTPV(record, to: &out)
        out.append(contentsOf: [0x0D, 0x0A])
        return out
    }

    /// One `SKY` for a receiver's sky view, as gpsd writes it: `device` (the
    /// receiver, named as its `TPV`s name it), `time` when known, `hdop`/`pdop`/`vdop` when
    /// known, `nSat` (in view), `uSat` (used) and `satellites` with `PRN`,
    /// `gnssid`/`svid` when known, `el`, `az`, `ss` when known, and `used`.
    public static func sky(_ view: SkyView, client: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(80 + 80 * view.satellites.count)
        appendSky(view, client: client, to: &out)
        out.append(contentsOf: [0x0D, 0x0A])
        return out
    }

    private static func appendSky(_ view: SkyView, client: String, to out: inout [UInt8]) {
        ByteText.append(#"{"class":"SKY","device":"#, to: &out)
        ByteText.appendJSONString(deviceName(receiver: view.device, client: client), to: &out)
        if let time = view.time, UTCTime.isWritable(time) {
            ByteText.append(#","time":""#, to: &out)
            ByteText.appendUTC(time, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        for (key, dop) in [(#","hdop":"#, view.hdop), (#","pdop":"#, view.pdop), (#","vdop":"#, view.vdop)] {
            guard let dop else { continue }
            ByteText.append(key, to: &out)
            _ = FixedDecimal.append(dop, decimals: 2, minimumDecimals: 2, to: &out)
        }
        let seen = view.satellitesVisible ?? view.satellites.count
        let used = view.satellitesUsed ?? view.satellites.lazy.filter(\.used).count
        ByteText.append(#","nSat":"#, to: &out)
        ByteText.append(max(seen, view.satellites.count), to: &out)
        ByteText.append(#","uSat":"#, to: &out)
        ByteText.append(used, to: &out)
        ByteText.append(#","satellites":["#, to: &out)
        for (index, satellite) in view.satellites.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            ByteText.append(#"{"PRN":"#, to: &out)
            ByteText.append(satellite.prn, to: &out)
            if let gnss = satellite.gnssID, let sv = satellite.svID {
                ByteText.append(#","gnssid":"#, to: &out)
                ByteText.append(gnss, to: &out)
                ByteText.append(#","svid":"#, to: &out)
                ByteText.append(sv, to: &out)
            }
            for (key, value) in [(#","el":"#, satellite.elevation), (#","az":"#, satellite.azimuth), (#","ss":"#, satellite.snr)] {
                guard let value else { continue }
                ByteText.append(key, to: &out)
                _ = FixedDecimal.append(value, decimals: 1, minimumDecimals: 1, to: &out)
            }
            ByteText.append(satellite.used ? #","used":true}"# : #","used":false}"#, to: &out)
        }
        ByteText.append("]}", to: &out)
    }

    /// `POLL`: `time` (now, UTC seconds), `active` 1, the last fix this
    /// program got (`tpv` empty when it has had none) and the last sky view it
    /// got (`sky` empty when it has had none under its client's current grant).
    public static func poll(client: String, last: LogRecord?, sky: SkyView?, time: Double) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.append(#"{"class":"POLL","time":""#, to: &out)
        ByteText.appendUTC(time, to: &out)
        ByteText.append(#"","active":1,"tpv":["#, to: &out)
        if let last { appendTPV(last, to: &out) }
        ByteText.append(#"],"sky":["#, to: &out)
        if let sky { appendSky(sky, client: client, to: &out) }
        out.append(UInt8(ascii: "]"))
        return finish(&out)
    }

    private static func appendDevice(_ device: Device, to out: inout [UInt8]) {
        ByteText.append(#"{"class":"DEVICE","path":"#, to: &out)
        ByteText.appendJSONString(device.path, to: &out)
        ByteText.append(#","driver":"locationd","activated":""#, to: &out)
        ByteText.appendUTC(device.activated, to: &out)
        ByteText.append(#"","flags":1}"#, to: &out)
    }

    private static func appendTPV(_ record: LogRecord, to out: inout [UInt8]) {
        ByteText.append(#"{"class":"TPV","device":"#, to: &out)
        ByteText.appendJSONString(deviceName(of: record), to: &out)
        ByteText.append(#","mode":"#, to: &out)
        ByteText.append(record.mode.rawValue, to: &out)
        ByteText.append(#","time":""#, to: &out)
        ByteText.appendUTC(record.time, to: &out)
        ByteText.append(#"","lat":"#, to: &out)
        _ = FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &out)
        ByteText.append(#","lon":"#, to: &out)
        _ = FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &out)
        if let altitude = record.altitude {
            appendMeasurement(#","alt":"#, altitude, to: &out)
            appendMeasurement(#","altMSL":"#, altitude, to: &out)
        }
        if let eph = record.horizontalError { appendMeasurement(#","eph":"#, eph, to: &out) }
        if let epv = record.verticalError { appendMeasurement(#","epv":"#, epv, to: &out) }
        if let track = record.course { appendMeasurement(#","track":"#, track, to: &out) }
        if let speed = record.speed { appendMeasurement(#","speed":"#, speed, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    private static func appendMeasurement(_ key: String, _ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return }
        ByteText.append(key, to: &out)
        _ = FixedDecimal.append(value, decimals: LogRecord.measurementDecimals, minimumDecimals: 1, to: &out)
    }

    /// Closes the object opened by the caller and ends the line as gpsd does.
    private static func finish(_ out: inout [UInt8]) -> [UInt8] {
        out.append(contentsOf: [UInt8(ascii: "}"), 0x0D, 0x0A])
        return out
    }
}
