import LocationCodecs
import LocationCore
import Testing

/// One line of a gpsd JSON log → its class and what the live source takes
/// from a SKY or a DEVICE; garbled lines → a reason that quotes nothing of the
/// line. (A TPV's values: GPSDLogShimTests, through the live source's decoder.)
@Suite struct GPSDLogLineTests {
    static func decode(_ line: String) -> GPSDLogLine {
        Array(line.utf8).withUnsafeBytes { GPSDLogLine.decode($0) }
    }

    static let reports: [(String, GPSDLogLine)] = [
        // A TPV is named, not read: its values are the live source's decoder's (GPSDLogParser's TPVReader,
        // LocationDaemonTests' GPSDLogShimTests).
        (
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-14T09:30:01.000Z","lat":35.681189167,"lon":139.767071833}"#
                + "\r",
            .tpv
        ),
        (#" { "mode" : 2, "lat" : -33.5, "lon" : 18.25, "class" : "TPV" } "#, .tpv),
        (#"{"class":"TPV","mode":3,"lat":"35.68","lon":2}"#, .tpv),
        // SKY: satellites used counted from the list, as libgps; none without a list.
        (
            #"{"class":"SKY","device":"/dev/ttyACM0","hdop":0.9,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#,
            .sky(device: "/dev/ttyACM0", satellitesUsed: 2)
        ),
        (#"{"class":"SKY","hdop":2.00,"uSat":10}"#, .sky(device: nil, satellitesUsed: nil)),
        (#"{"class":"SKY","satellites":[]}"#, .sky(device: nil, satellitesUsed: nil)),
        // DEVICE: closed (activated 0) or opened.
        (#"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#, .device(path: "/dev/pts/1", activated: false)),
        (
            #"{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2026-12-04T06:55:18.220Z","bps":4800}"#,
            .device(path: "/dev/pts/1", activated: true)
        ),
        (#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#, .version),
        (#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1"}]}"#, .other(className: "DEVICES")),
        (#"{"class":"WATCH","enable":true,"json":true}"#, .other(className: "WATCH")),
        (#"{"class":"GST","device":"/dev/pts/1","rms":3.5,"lat":1.65}"#, .other(className: "GST")),
        (#"{"class":"PPS","device":"/dev/pps0","real_sec":1}"#, .other(className: "PPS")),
        (#"{"class":"TOFF","real_sec":1}"#, .other(className: "TOFF")),
        (#"{"class":"ATT","heading":14.2}"#, .other(className: "ATT")),
        // Beside the JSON.
        ("$GPGGA,093000.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,*60\r", .notJSON(.nmea)),
        ("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26", .notJSON(.nmea)),
        ("# recorded on the roof", .notJSON(.comment)),
        (" \t\r", .notJSON(.blank)),
    ]

    @Test(arguments: reports)
    func aLineBecomesWhatTheLiveSourceTakesFromIt(_ line: String, _ expected: GPSDLogLine) {
        #expect(Self.decode(line) == expected)
    }

    static let garbled: [(String, String)] = [
        (#"{"class":"TPV","mode":3,"lat":35.68"#, "not JSON (unexpected end of input at byte 35)"),
        (#"{"class":"TPV","mode":3,,}"#, "not JSON (expected a string key at byte 24)"),
        (#"[{"class":"TPV"}]"#, "not a JSON object"),
        ("garbage", "not a JSON object"),
        (#"{"mode":3,"lat":1,"lon":2}"#, "no \"class\" naming the report"),
        (#"{"class":5}"#, "no \"class\" naming the report"),
        (#"{"class":""}"#, "\"class\" is not a report class"),
        (#"{"class":"SKY","satellites":{"PRN":1}}"#, "SKY \"satellites\" is not an array"),
        (#"{"class":"SKY","satellites":[1,2]}"#, "SKY \"satellites\" holds a non-object"),
        (#"{"class":"SKY","device":7}"#, "SKY \"device\" is not a string"),
        (#"{"class":"SKY","device":"/dev/\#(String(repeating: "x", count: 123))"}"#, "SKY \"device\" is longer than 127 bytes"),
    ]

    @Test(arguments: garbled)
    func aGarbledLineIsUnreadableWithItsReason(_ line: String, _ reason: String) {
        #expect(Self.decode(line) == .unreadable(reason: reason))
    }

    @Test func anUnreadableLineNeverQuotesItsContent() {
        for (line, _) in Self.garbled {
            guard case .unreadable(let reason) = Self.decode(line) else { continue }
            #expect(!reason.contains("35.68") && !reason.contains("garbage"), "\(reason)")
        }
    }
}
