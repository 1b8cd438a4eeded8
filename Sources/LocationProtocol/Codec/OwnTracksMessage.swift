import LocationValues

/// The OwnTracks JSON a client's records are published as over MQTT
/// (docs/mqtt.md): what OwnTracks Recorder, Traccar, Home Assistant and
/// Node-RED read from `owntracks/USER/DEVICE`.
///
/// ```
/// {"_type":"location","lat":35.6811990,"lon":139.7670668,"tst":1773480600,"acc":2,"alt":35,"vac":4,"vel":4,"cog":158,"tid":"b1","t":"t","created_at":1773480601}
/// ```
///
/// A record is published as its log line holds it: `lat`/`lon` with the
/// log's 7 decimals; `acc` (hAcc), `alt`, `vac` (vAcc) and `cog` (course)
/// rounded to whole metres and degrees, `vel` the speed in km/h rounded, as
/// OwnTracks' integer fields are; a value the record lacks is left out. A
/// reduced-accuracy record has no `alt`, `vac`, `vel` or `cog`, so neither
/// has its message. `tst` is the fix's own time (whole seconds, rounded
/// down); `created_at` when the message was made; `t` is `t`, OwnTracks'
/// trigger for a time- or distance-driven publish in move mode, which is what
/// a client's updates are.
public enum OwnTracksMessage {
    /// OwnTracks' trigger word for every published record.
    public static let trigger = "t"

    /// The `_type:"location"` message for `record`, made at `createdAt` (UTC seconds).
    public static func location(_ record: LogRecord, trackerID: String, createdAt: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(200)
        ByteText.append(#"{"_type":"location","lat":"#, to: &out)
        FixedDecimal.append(record.latitude, decimals: LogRecord.coordinateDecimals, to: &out)
        ByteText.append(#","lon":"#, to: &out)
        FixedDecimal.append(record.longitude, decimals: LogRecord.coordinateDecimals, to: &out)
        ByteText.append(#","tst":"#, to: &out)
        ByteText.append(Int(record.time.rounded(.down)), to: &out)
        appendInteger("acc", record.horizontalError, to: &out)
        appendInteger("alt", record.altitude, to: &out)
        appendInteger("vac", record.verticalError, to: &out)
        appendInteger("vel", record.speed.map { $0 * 3.6 }, to: &out)
        appendInteger("cog", record.course.map { $0 >= 359.5 ? 0 : $0 }, to: &out)
        ByteText.append(#","tid":"#, to: &out)
        ByteText.appendJSONString(trackerID, to: &out)
        ByteText.append(#","t":"#, to: &out)
        ByteText.appendJSONString(trigger, to: &out)
        if createdAt.isFinite {
            ByteText.append(#","created_at":"#, to: &out)
            ByteText.append(Int(createdAt.rounded(.down)), to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The `_type:"lwt"` message the broker publishes when the connection made
    /// at `connectedAt` ends without a goodbye: `{"_type":"lwt","tst":…}`.
    public static func lastWill(connectedAt: Double) -> [UInt8] {
        var out: [UInt8] = []
        ByteText.append(#"{"_type":"lwt","tst":"#, to: &out)
        ByteText.append(connectedAt.isFinite ? Int(connectedAt.rounded(.down)) : 0, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func appendInteger(_ key: String, _ value: Double?, to out: inout [UInt8]) {
        guard let value, value.isFinite, abs(value) < 1e15 else { return }
        ByteText.append(",\"\(key)\":", to: &out)
        ByteText.append(Int(value.rounded()), to: &out)
    }
}
