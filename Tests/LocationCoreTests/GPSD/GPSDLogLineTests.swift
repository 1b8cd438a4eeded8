import LocationCodecs
import LocationCore
import Testing

/// One line of a gpsd JSON log → what the live source takes from it; garbled
/// lines → a reason that quotes nothing of the line.
@Suite struct GPSDLogLineTests {
    typealias Time = GPSDFixReport.Time

    static func decode(_ line: String) -> GPSDLogLine {
        Array(line.utf8).withUnsafeBytes { GPSDLogLine.decode($0) }
    }

    /// 2026-03-14T09:30:00Z.
    static let t0: Int64 = 1_773_480_600

    static let reports: [(String, GPSDLogLine)] = [
        // gpsd 3.22's own TPV after an RMC, with its CR.
        (
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-14T09:30:01.000Z","ept":0.005,"lat":35.681189167,"lon":139.767071833,"altHAE":52.9000,"altMSL":34.5000,"alt":34.5000,"epv":32.660,"track":164.2300,"magtrack":156.6479,"magvar":-7.6,"speed":0.830,"climb":0.000,"epc":65.32,"geoidSep":18.400,"eph":16.530,"sep":31.730}"#
                + "\r",
            .tpv(
                GPSDFixReport(
                    time: Time(seconds: t0 + 1, nanoseconds: 0), mode: .threeD, latitude: 35.681189167,
                    longitude: 139.767071833, altitudeMSL: 34.5, altitudeHAE: 52.9, geoidSeparation: 18.4, eph: 16.53,
                    epv: 32.66, speed: 0.83, track: 164.23, device: "/dev/ttyUSB0"),
                outOfRange: nil)
        ),
        // "class" last, white space, no device, no time: a TPV all the same.
        (
            #" { "mode" : 2, "lat" : -33.5, "lon" : 18.25, "class" : "TPV" } "#,
            .tpv(GPSDFixReport(time: nil, mode: .twoD, latitude: -33.5, longitude: 18.25), outOfRange: nil)
        ),
        // Nanoseconds as libgps computes them, (long)(0.123 * 1e9); a leap second runs on into the next minute.
        (
            #"{"class":"TPV","mode":3,"time":"2024-02-29T23:59:60.123Z","lat":1,"lon":2}"#,
            .tpv(
                GPSDFixReport(
                    time: Time(seconds: 1_709_251_200, nanoseconds: 123_000_000), mode: .threeD, latitude: 1,
                    longitude: 2), outOfRange: nil)
        ),
        // 1970-01-01T00:00:00Z is libgps's "no time"; mode 0 is gpsd's "not seen"; one coordinate is no position.
        (
            #"{"class":"TPV","mode":0,"time":"1970-01-01T00:00:00.000Z","lat":1.5}"#,
            .tpv(GPSDFixReport(time: nil, mode: .unknown), outOfRange: nil)
        ),
        (#"{"class":"TPV","device":"","mode":1}"#, .tpv(GPSDFixReport(time: nil, mode: .noFix), outOfRange: nil)),
        (#"{"class":"TPV","mode":3,"lat":null,"lon":2}"#, .tpv(GPSDFixReport(time: nil, mode: .threeD), outOfRange: nil)),
        // Absurd values are read, and named.
        (
            #"{"class":"TPV","mode":3,"lat":91.5,"lon":2}"#,
            .tpv(GPSDFixReport(time: nil, mode: .threeD, latitude: 91.5, longitude: 2), outOfRange: "lat")
        ),
        (#"{"class":"TPV","mode":7}"#, .tpv(GPSDFixReport(time: nil, mode: .unknown), outOfRange: "mode")),
        (#"{"class":"TPV","mode":3,"eph":-1}"#, .tpv(GPSDFixReport(time: nil, mode: .threeD, eph: -1), outOfRange: "eph")),
        (
            #"{"class":"TPV","mode":3,"track":360.5}"#,
            .tpv(GPSDFixReport(time: nil, mode: .threeD, track: 360.5), outOfRange: "track")
        ),
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
        (#"{"class":"TPV","mode":3,"lat":"35.68","lon":2}"#, "TPV \"lat\" is not a number"),
        (#"{"class":"TPV","mode":2.5}"#, "TPV \"mode\" is not an integer"),
        (#"{"class":"TPV","device":7}"#, "TPV \"device\" is not a string"),
        (#"{"class":"TPV","time":1773480600}"#, "TPV \"time\" is not a string"),
        (
            #"{"class":"TPV","time":"2026-13-14T09:30:00Z"}"#,
            "TPV \"time\" is not a UTC time as gpsd writes it (YYYY-MM-DDTHH:MM:SS[.fff]Z, 1970 to 9999)"
        ),
        (
            #"{"class":"TPV","time":"1969-12-31T23:59:59.000Z"}"#,
            "TPV \"time\" is not a UTC time as gpsd writes it (YYYY-MM-DDTHH:MM:SS[.fff]Z, 1970 to 9999)"
        ),
        (
            #"{"class":"TPV","time":"2026-03-14T09:30:00.5+01:00"}"#,
            "TPV \"time\" is not a UTC time as gpsd writes it (YYYY-MM-DDTHH:MM:SS[.fff]Z, 1970 to 9999)"
        ),
        (#"{"class":"SKY","satellites":{"PRN":1}}"#, "SKY \"satellites\" is not an array"),
        (#"{"class":"SKY","satellites":[1,2]}"#, "SKY \"satellites\" holds a non-object"),
        (#"{"class":"TPV","device":"/dev/\#(String(repeating: "x", count: 123))"}"#, "TPV \"device\" is longer than 127 bytes"),
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
