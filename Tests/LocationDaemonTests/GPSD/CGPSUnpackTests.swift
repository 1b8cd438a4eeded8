import CGPS
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The shim's own TPV reader against libgps's unpacker, line by line: a
/// line the reader takes must give what libgps gives, bit for bit; and no
/// line may keep either from returning.
@Suite(.timeLimit(.minutes(10))) struct CGPSUnpackTests {
    /// What one line unpacked to, and whether the shim's reader took it.
    struct Unpacked: Equatable, CustomStringConvertible {
        var kind: UInt32
        var set: UInt32
        var seconds: Int64
        var nanoseconds: Int32
        var mode: Int32
        /// Every double's bits (NaN compared as NaN).
        var bits: [UInt64]
        var devices: Int32
        var byShim: Bool

        init(_ report: cgps_report, byShim: Bool) {
            kind = report.kind.rawValue
            let fix = report.fix
            set = fix.set
            seconds = fix.time_sec
            nanoseconds = fix.time_nsec
            mode = fix.mode
            bits = [
                fix.latitude, fix.longitude, fix.alt_msl, fix.alt_hae, fix.geoid_sep, fix.eph, fix.epv, fix.epx, fix.epy,
                fix.speed, fix.track,
            ].map { $0.isNaN ? UInt64.max : $0.bitPattern }
            devices = report.devices
            self.byShim = byShim
        }

        /// Equal as reports, whoever read them.
        func sameReport(as other: Unpacked) -> Bool {
            var a = self, b = other
            a.byShim = false
            b.byShim = false
            return a == b
        }

        var description: String {
            "kind \(kind) set \(String(set, radix: 16)) time \(seconds).\(nanoseconds) mode \(mode) devices \(devices) shim \(byShim)"
        }
    }

    /// Unpacks `line` both ways through one offline session.
    static func both(_ line: String, _ session: OpaquePointer) -> (shim: Unpacked, libgps: Unpacked) {
        func unpack(_ unpacker: cgps_unpacker) -> Unpacked {
            var bytes = Array(line.utf8CString)
            var report = cgps_report()
            let byShim = bytes.withUnsafeMutableBufferPointer { cgps_unpack(session, $0.baseAddress, &report, unpacker) }
            return Unpacked(report, byShim: byShim == 1)
        }
        return (unpack(CGPS_UNPACK_SHIM), unpack(CGPS_UNPACK_LIBGPS))
    }

    static func withSession<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let session = try #require(cgps_offline())
        defer { cgps_close(session) }
        return try body(session)
    }

    @Test
    func everyTPVOfGPSDsRegressionCorpusReadsAsLibgpsReadsIt() throws {
        let tpvs = try GPSDCorpusOutput.lines(of: "TPV")
        var lines = 0
        try Self.withSession { session in
            for tpv in tpvs {
                let line = tpv.text
                let (shim, libgps) = Self.both(line, session)
                #expect(shim.byShim, "gpsd's own TPV left to libgps: \(line)")
                #expect(shim.sameReport(as: libgps), "\(tpv.file): \(line)\n shim   \(shim)\n libgps \(libgps)")
                lines += 1
            }
        }
        #expect(lines > 4000, "the corpus holds 4747 TPVs")
    }

    /// TPVs as gpsd writes them (its member order and precisions, the
    /// device, \r at the end), with values drawn over every range.
    @Test func generatedTPVsInGPSDsShapeAreReadByTheShimAsLibgpsReadsThem() throws {
        var random = SplitMix(seed: 0x7e57_0001)  // ControlServerTests.swift
        try Self.withSession { session in
            for _ in 0..<20_000 {
                let line = Self.gpsdTPV(&random)
                let (shim, libgps) = Self.both(line, session)
                #expect(shim.byShim, "left to libgps: \(line)")
                #expect(shim.sameReport(as: libgps), "\(line)\n shim   \(shim)\n libgps \(libgps)")
                if !shim.sameReport(as: libgps) { return }
            }
        }
    }

    @Test(arguments: [
        // White space, a quoted number, an escape, an exponent beyond ±22, 19 digits,
        // a leading +, a bare fraction, an array, a time libgps reads its own way.
        #"{"class":"TPV", "mode":3,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":"1.5","lon":2.5}"#,
        #"{"class":"TPV","device":"/dev/tty\u0041","mode":3,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.5e-30,"lon":2.5e40}"#,
        #"{"class":"TPV","mode":3,"lat":35.6811990001234567,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":+1.5,"lon":.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"x":[1,2]}"#,
        #"{"class":"TPV","mode":3,"time":"2025-1-1T00:00:00Z","lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"time":"1969-12-31T23:59:59.000Z","lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3.0,"lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"time":"9999-12-31T23:59:60.000Z","lat":1.5,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.5x,"lon":2.5}"#,
    ])
    func linesOutsideGPSDsShapeAreLeftToLibgps(line: String) throws {
        try Self.withSession { session in
            let (shim, libgps) = Self.both(line, session)
            #expect(!shim.byShim)
            #expect(shim == libgps)
        }
    }

    @Test func theReaderKeepsGPSDsMeaningsOfTimeAndMode() throws {
        try Self.withSession { session in
            // A leap second, and nanoseconds as libgps computes them: (long)(0.123 * 1e9).
            let time = Self.both(#"{"class":"TPV","mode":3,"time":"2024-02-29T23:59:60.123Z","lat":1,"lon":2}"#, session)
            #expect(time.shim.byShim && time.shim.sameReport(as: time.libgps), "\(time)")
            #expect(time.shim.seconds == 1_709_251_200, "the leap second runs on into March, as mkgmtime counts")
            #expect(time.shim.nanoseconds == 123_000_000)
            // Mode 0 is gpsd's "not seen"; 4 is no mode locationd knows.
            for mode in [0, 4, -1] {
                let read = Self.both(#"{"class":"TPV","mode":\#(mode),"lat":1,"lon":2}"#, session)
                #expect(read.shim.byShim && read.shim.sameReport(as: read.libgps))
                #expect(read.shim.set & UInt32(CGPS_HAS_MODE) == 0)
            }
            // The epoch itself is gpsd's "no time".
            let epoch = Self.both(#"{"class":"TPV","mode":1,"time":"1970-01-01T00:00:00.500Z"}"#, session)
            #expect(epoch.shim.byShim && epoch.shim.sameReport(as: epoch.libgps))
            #expect(epoch.shim.set & UInt32(CGPS_HAS_TIME) == 0)
        }
    }

    /// libgps 3.22's gps_unpack restarts after a parse error where the error
    /// was, and never returns when a "class" follows there. The shim keeps
    /// such lines from it: DEVICES it counts itself, the rest it marks.
    @Test(.timeLimit(.minutes(1)))
    func linesThatWouldHangLibgpsAreCountedOrMarkedAndReturnAtOnce() throws {
        let device = #"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":"2025-01-01T00:00:00.000Z","driver":"NMEA0183"}"#
        try Self.withSession { session in
            for count in [0, 1, 4, 5, 9] {
                let line = #"{"class":"DEVICES","devices":["# + Array(repeating: device, count: count).joined(separator: ",") + "]}"
                let (shim, _) = count <= 4 ? Self.both(line, session) : (Self.shimOnly(line, session), Self.shimOnly(line, session))
                #expect(shim.kind == CGPS_REPORT_DEVICES.rawValue)
                #expect(shim.devices == Int32(count), "more receivers than libgps's MAXUSERDEVS are counted too")
            }
            for line in [
                #"{"class":"TPV","lat":"x","class":"TPV"}"#, #"{"class":"SKY","hdop":"x","class":"SKY"}"#,
                #"{"class":"WATCH","enable":"x","json":true}{"class":"WATCH"}"#, #"{4"class":"TPV"}"#,
                #" {"class":"TPV","mode":3}"#,
            ] {
                #expect(Self.shimOnly(line, session).kind == CGPS_REPORT_UNREADABLE.rawValue, "\(line)")
            }
        }
    }

    /// A DEVICES line's receivers are counted and their paths copied, for the gpsd source's raw
    /// connections (`raw_log`): in order, `\"` `\\` `\/` unescaped, a path that does not fit or
    /// that holds another escape left out (and still counted).
    @Test func aDevicesLinesPathsAreCopiedInOrder() throws {
        func device(_ path: String) -> String {
            #"{"class":"DEVICE","path":""# + path + #"","activated":"2026-03-14T12:00:00.000Z","native":0,"bps":9600}"#
        }
        let long = "/dev/" + String(repeating: "x", count: Int(CGPS_DEVICE_PATHS_MAX))
        let listed = ["/dev/ttyACM0", #"/dev/serial/by-id/usb-u-blox_\"F9P\"\/x"#, #"/dev/\u0041"#, long, "/dev/pts/7"]
        let line = #"{"class":"DEVICES","devices":["# + listed.map(device).joined(separator: ",") + "]}"
        try Self.withSession { session in
            var bytes = Array(line.utf8CString)
            var report = cgps_report()
            _ = bytes.withUnsafeMutableBufferPointer { cgps_unpack(session, $0.baseAddress, &report, CGPS_UNPACK_SHIM) }
            #expect(report.kind == CGPS_REPORT_DEVICES)
            #expect(report.devices == 5)
            let length = Int(report.device_paths_length)
            let paths = withUnsafeBytes(of: &report.device_paths) { raw in
                raw.prefix(length).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(paths == ["/dev/ttyACM0", #"/dev/serial/by-id/usb-u-blox_"F9P"/x"#, "/dev/pts/7"])
        }
    }

    /// The shim's reader takes a TPV before the guard looks at it: a TPV in gpsd's
    /// shape that names "class" again anywhere must still come out unreadable, and
    /// strings are taken up to libgps's 63 bytes, without escapes, and no further.
    @Test func theReaderGivesBackEveryLineTheGuardMustJudge() throws {
        try Self.withSession { session in
            for line in [
                #"{"class":"TPV","class":"TPV","mode":3,"lat":1.5,"lon":2.5}"#,
                #"{"class":"TPV","mode":3,"lat":1.5,"class":"SKY","lon":2.5}"#,
                #"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"class":7}"#,
                #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"lat":1.5,"lon":2.5,"class":"TPV"}\#r"#,
            ] {
                let read = Self.shimOnly(line, session)
                #expect(!read.byShim, "\(line)")
                #expect(read.kind == CGPS_REPORT_UNREADABLE.rawValue, "\(line)")
            }
            // A member named like a class, or a value spelling one, is no second "class".
            for line in [
                #"{"class":"TPV","mode":3,"classes":"TPV","lat":1.5,"lon":2.5}"#,
                #"{"class":"TPV","mode":3,"tag":"class","lat":1.5,"lon":2.5}"#,
            ] {
                let (shim, libgps) = Self.both(line, session)
                #expect(shim.byShim, "\(line)")
                #expect(shim.kind == CGPS_REPORT_TPV.rawValue && shim.sameReport(as: libgps), "\(line)")
            }
            func device(_ length: Int) -> String {
                #"{"class":"TPV","device":"\#(String(repeating: "d", count: length))","mode":3,"lat":1.5,"lon":2.5}"#
            }
            for (line, taken) in [
                (device(0), true), (device(63), true), (device(64), false),
                (#"{"class":"TPV","device":"/dev/a\\b","mode":3,"lat":1.5,"lon":2.5}"#, false),
                (#"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"device":"/dev/ttyUSB0"#, false),
            ] {
                let (shim, libgps) = Self.both(line, session)
                #expect(shim.byShim == taken, "\(line)")
                #expect(shim.sameReport(as: libgps), "\(line)\n shim   \(shim)\n libgps \(libgps)")
            }
        }
    }

    /// The guard sorts a line by its whole class name, not by the first letter it looks at.
    @Test func classesAreKnownByTheirWholeName() throws {
        try Self.withSession { session in
            for (line, kind) in [
                (#"{"class":"GST","device":"/dev/ttyUSB0","time":"2025-01-01T00:00:00.000Z","rms":1.0}"#, CGPS_REPORT_OTHER),
                (#"{"class":"TOFF","device":"/dev/ttyUSB0","real_sec":1}"#, CGPS_REPORT_OTHER),
                (#"{"class":"SUBFRAME","device":"/dev/ttyUSB0","tSV":1}"#, CGPS_REPORT_OTHER),
                (#"{"class":"DEVICEX","path":"/dev/ttyUSB0"}"#, CGPS_REPORT_OTHER),
                (#"{"class":"WATCHED","enable":true}"#, CGPS_REPORT_OTHER),
                (#"{"class":"ERRORS","message":"x"}"#, CGPS_REPORT_OTHER),
                (#"{"class":"VERSIONS","release":"3.22"}"#, CGPS_REPORT_OTHER),
                (#"{"class":"TPVX","mode":3}"#, CGPS_REPORT_OTHER),
                (#"{"class":"SKY","hdop":0.9,"satellites":[{"PRN":2,"el":40.0,"az":120.0,"ss":40.0,"used":true}]}"#, CGPS_REPORT_SKY),
                (#"{"class":"DEVICES","devices":[]}"#, CGPS_REPORT_DEVICES),
                (#"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":"2025-01-01T00:00:00.000Z"}"#, CGPS_REPORT_DEVICE),
                (#"{"class":"WATCH","enable":true,"json":true}"#, CGPS_REPORT_WATCH),
                (#"{"class":"ERROR","message":"unrecognized request"}"#, CGPS_REPORT_ERROR),
                (#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#, CGPS_REPORT_VERSION),
                (#"{"class":"GST","rms":1.0,"class":"GST"}"#, CGPS_REPORT_OTHER),
                (#"{"class":"SKY","hdop":0.9,"class":"SKY"}"#, CGPS_REPORT_UNREADABLE),
            ] {
                #expect(Self.shimOnly(line, session).kind == kind.rawValue, "\(line)")
            }
        }
    }

    /// gpsd-shaped TPVs and other reports, then damaged: a byte dropped,
    /// changed or added. Whatever the shim reads itself equals libgps's
    /// reading, and the guard keeps every call finite.
    @Test(.timeLimit(.minutes(2)))
    func damagedLinesNeverHangAndTheShimNeverDisagreesWithLibgps() throws {
        var random = SplitMix(seed: 0xdead_beef)
        let alphabet = Array(#"0123456789.-eE",:{}[] ax\TPVclass"#.utf8)
        let others = [
            #"{"class":"SKY","device":"/dev/pts/1","hdop":0.91,"pdop":1.73,"satellites":[{"PRN":2,"el":40.0,"az":120.0,"ss":40.0,"used":true}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
            #"{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2025-01-01T00:00:00.000Z","flags":1}"#,
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
        ]
        var takenByShim = 0
        try Self.withSession { session in
            for n in 0..<20_000 {
                var bytes = Array((n % 5 == 4 ? others[Int(random.next() % 4)] : Self.gpsdTPV(&random)).utf8)
                for _ in 0...(random.next() % 3) where !bytes.isEmpty {
                    let at = Int(random.next() % UInt64(bytes.count))
                    let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    switch random.next() % 3 {
                    case 0: bytes.remove(at: at)
                    case 1: bytes[at] = byte
                    default: bytes.insert(byte, at: at)
                    }
                }
                let line = String(decoding: bytes, as: UTF8.self)
                let (shim, libgps) = Self.both(line, session)
                if shim.byShim {
                    takenByShim += 1
                    #expect(shim.sameReport(as: libgps), "\(line)\n shim   \(shim)\n libgps \(libgps)")
                    if !shim.sameReport(as: libgps) { return }
                }
            }
        }
        #expect(takenByShim > 1000, "the damage should leave many lines in gpsd's shape")
    }

    // MARK: - Helpers

    static func shimOnly(_ line: String, _ session: OpaquePointer) -> Unpacked {
        var bytes = Array(line.utf8CString)
        var report = cgps_report()
        let byShim = bytes.withUnsafeMutableBufferPointer { cgps_unpack(session, $0.baseAddress, &report, CGPS_UNPACK_SHIM) }
        return Unpacked(report, byShim: byShim == 1)
    }

    /// A TPV as gpsd 3.22–3.27 writes one: the members in gpsd's order, each
    /// present or not, with gpsd's precisions and random values.
    static func gpsdTPV(_ random: inout SplitMix) -> String {
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func value(_ range: Double, _ decimals: Int) -> String {
            let x = (Double(random.next() % 2_000_001) / 1_000_000 - 1) * range
            return formatted(x, decimals)
        }
        var members = [#""class":"TPV""#]
        if chance(80) { members.append(#""device":"/dev/ttyUSB\#(random.next() % 10)""#) }
        if chance(50) { members.append(#""status":\#(random.next() % 9)"#) }
        members.append(#""mode":\#(random.next() % 4)"#)
        if chance(90) {
            let seconds = 315_964_800 + Int(random.next() % 4_000_000_000)
            var civil = tm()
            var t = time_t(seconds)
            gmtime_r(&t, &civil)
            let digits = [0, 1, 2, 3, 3, 3, 6, 9][Int(random.next() % 8)]
            var fraction = ""
            if digits > 0 {
                var limit: UInt64 = 1
                for _ in 0..<digits { limit *= 10 }
                let part = String(random.next() % limit)
                fraction = "." + String(repeating: "0", count: digits - part.count) + part
            }
            let time =
                "\(civil.tm_year + 1900)-\(two(civil.tm_mon + 1))-\(two(civil.tm_mday))T\(two(civil.tm_hour)):\(two(civil.tm_min)):\(two(civil.tm_sec))\(fraction)Z"
            members.append(#""time":"\#(time)""#)
        }
        for (name, range, decimals, percent): (String, Double, Int, UInt64) in [
            ("leapseconds", 0, 0, 20), ("ept", 1, 3, 60), ("lat", 90, 9, 90), ("lon", 180, 9, 90),
            ("altHAE", 9000, 4, 70), ("altMSL", 9000, 4, 70), ("alt", 9000, 4, 50), ("epx", 500, 3, 50),
            ("epy", 500, 3, 50), ("epv", 500, 3, 50), ("track", 360, 4, 60), ("magtrack", 360, 4, 30),
            ("magvar", 30, 1, 30), ("speed", 300, 3, 70), ("climb", 50, 3, 50), ("eps", 900, 2, 40),
            ("epc", 900, 2, 40), ("ecefx", 7e6, 2, 20), ("ecefy", 7e6, 2, 20), ("ecefz", 7e6, 2, 20),
            ("ecefvx", 99, 2, 20), ("ecefpAcc", 99, 2, 20), ("velN", 99, 3, 20), ("geoidSep", 120, 3, 60),
            ("eph", 900, 3, 70), ("sep", 900, 3, 40),
        ] where chance(percent) {
            members.append(name == "leapseconds" ? #""leapseconds":18"# : #""\#(name)":\#(value(range, decimals))"#)
        }
        return "{" + members.joined(separator: ",") + "}" + (chance(50) ? "\r" : "")
    }

    static func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `x` with `decimals` digits after the point, as printf's %.Nf writes it.
    static func formatted(_ x: Double, _ decimals: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([decimals, x]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
