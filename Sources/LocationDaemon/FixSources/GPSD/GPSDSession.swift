import CGPS
import LocationCodecs
import LocationCore
import LocationValues

#if canImport(Glibc)
import Glibc
#endif

/// One connection to gpsd through the CGPS shim: open, read reports, wait,
/// close on deinit. Used by a single thread; while it is open its socket is
/// lent to `control`, whose stop shuts it down to end a wait.
struct GPSDSession: ~Copyable {
    private let handle: OpaquePointer
    private let endpoint: String
    private let control: GPSDReaderControl
    private var timeout = GPSDReceiveTimeout()
    /// The last wait ran out: no input came.
    private var ranOut = false
    private var report = cgps_report()
    /// The receiver path of the last TPV or SKY: gpsd names the same receiver in every report.
    private var lastDevice = DeviceName()

    /// Connects to gpsd at `host:port` and starts a JSON watch. A stop of
    /// `control` shuts the socket down while the session is open.
    init(host: String, port: Int, control: GPSDReaderControl) throws(GPSDError) {
        let endpoint = GPSDSession.endpoint(host: host, port: port)
        // libgps reads these two names as its shared-memory and D-Bus exports.
        let exports: Set<String> = ["shared memory", "DBUS export"]
        guard (1...65535).contains(port), !host.isEmpty, !host.utf8.contains(0), !exports.contains(host) else {
            throw GPSDError(code: .invalidEndpoint, endpoint: endpoint)
        }
        try GPSDLibrary.load(endpoint: endpoint)
        var opened: OpaquePointer?
        let status = cgps_open(host, String(port), &opened)
        guard status == 0, let opened else {
            throw GPSDError(code: .connect(status: status), endpoint: endpoint)
        }
        self.handle = opened
        self.endpoint = endpoint
        self.control = control
        control.lend(socket: cgps_descriptor(opened))
    }

    deinit {
        // Taken back first: a stop must never shut down a descriptor number reused after the close.
        control.takeBackSocket()
        cgps_close(handle)
    }

    /// `host:port`, with brackets around an IPv6 address.
    static func endpoint(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The shim's text for a `cgps_open` status.
    static func describe(status: Int32) -> String {
        guard let text = cgps_strerror(status) else { return "error \(status)" }
        return String(cString: text)
    }

    /// The next complete report, or `nil` when none is buffered yet.
    mutating func read() throws(GPSDError) -> GPSDReport? {
        var sysErrno: Int32 = 0
        let status = cgps_read(handle, &report, &sysErrno)
        if status < 0 {
            throw GPSDError(code: sysErrno == 0 ? .closed : .io(errno: sysErrno), endpoint: endpoint)
        }
        if status == 0 { return nil }
        return GPSDSession.convert(&report, device: &lastDevice)
    }

    /// Renews the watch (a liveness probe gpsd answers with DEVICES and WATCH).
    func watch() throws(GPSDError) {
        let status = cgps_watch(handle)
        if status != 0 { throw GPSDError(code: .io(errno: status), endpoint: endpoint) }
    }

    /// Asks gpsd for its receivers (`?DEVICES;`): the answer comes as a `.devices` report.
    func askDevices() throws(GPSDError) {
        let status = cgps_send(handle, "?DEVICES;\n")
        if status != 0 { throw GPSDError(code: .io(errno: status), endpoint: endpoint) }
    }

    /// Blocks in recv(2) until there is input, the connection ends (a stop
    /// shuts it down) or `deadline` (monotonic seconds; nil: none) comes. The
    /// timeout armed on the socket changes only when it would end the wait
    /// too late or too early (`GPSDReceiveTimeout`). Either way the caller
    /// reads next: what came, or nothing.
    mutating func wait(until deadline: Double?, now: Double) throws(GPSDError) {
        let result = cgps_wait(handle, timeout.milliseconds(until: deadline, now: now, afterTimeout: ranOut))
        switch result {
        case Int32(CGPS_WAIT_READY): ranOut = false
        case Int32(CGPS_WAIT_TIMEOUT): ranOut = true
        default: throw GPSDError(code: .io(errno: -result), endpoint: endpoint)
        }
    }

    private static func convert(_ report: inout cgps_report, device last: inout DeviceName) -> GPSDReport {
        switch report.kind {
        case CGPS_REPORT_TPV:
            var tpv = convert(report.fix)
            tpv.device = last.name(of: &report)
            return .tpv(tpv)
        case CGPS_REPORT_SKY:
            let time =
                report.sky_time_sec > 0 ? Double(report.sky_time_sec) + Double(report.sky_time_nsec) / 1e9 : nil
            return .sky(
                SkyView(
                    satellitesUsed: Int(report.satellites_used), satellitesVisible: Int(report.satellites_visible),
                    hdop: report.hdop, pdop: report.pdop, vdop: report.vdop, time: time,
                    satellites: satellites(&report)),
                device: last.name(of: &report))
        case CGPS_REPORT_VERSION:
            return .version(release: text(&report))
        case CGPS_REPORT_DEVICES:
            return .devices(count: Int(report.devices), paths: devicePaths(&report))
        case CGPS_REPORT_DEVICE:
            return .device(path: text(&report), activated: report.activated)
        case CGPS_REPORT_WATCH:
            return .watch
        case CGPS_REPORT_ERROR:
            return .error(message: text(&report))
        case CGPS_REPORT_UNREADABLE:
            return .unreadable
        default:
            return .other
        }
    }

    /// A SKY's satellites as the shim copied them; entries without a usable PRN are skipped.
    private static func satellites(_ report: inout cgps_report) -> [Satellite] {
        let count = min(max(0, Int(report.satellite_count)), Int(CGPS_SATELLITES_MAX))
        guard count > 0 else { return [] }
        return withUnsafeBytes(of: &report.satellites) { raw in
            let all = raw.bindMemory(to: cgps_satellite.self)
            return all.prefix(count).compactMap { s in
                Satellite(
                    prn: Int(s.prn), gnssID: Int(s.gnssid), svID: Int(s.svid), elevation: s.elevation,
                    azimuth: s.azimuth, snr: s.ss, used: s.used)
            }
        }
    }

    /// A DEVICES report's receiver paths, as the shim copied them (NUL-terminated, one after the other).
    private static func devicePaths(_ report: inout cgps_report) -> [String] {
        let length = min(max(0, Int(report.device_paths_length)), Int(CGPS_DEVICE_PATHS_MAX))
        return withUnsafeBytes(of: &report.device_paths) { raw in
            raw.prefix(length).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A TPV's or SKY's receiver path; `nil` when it names none.
    static func device(_ report: inout cgps_report) -> String? {
        let path = text(&report)
        return path.isEmpty ? nil : path
    }

    /// A report's receiver path as the last one's `String` while its bytes stay the same: made
    /// (and its UTF-8 checked) once per receiver, not at every TPV.
    struct DeviceName {
        private var bytes: [UInt8] = []
        private var name: String?

        mutating func name(of report: inout cgps_report) -> String? {
            let changed: [UInt8]? = withUnsafeBytes(of: &report.text) { raw in
                let text = raw.prefix { $0 != 0 }
                return text.count == bytes.count && text.elementsEqual(bytes) ? nil : Array(text)
            }
            guard let changed else { return name }
            bytes = changed
            name = GPSDSession.device(&report)
            return name
        }
    }

    private static func text(_ report: inout cgps_report) -> String {
        withUnsafeBytes(of: &report.text) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func convert(_ fix: cgps_fix) -> GPSDFixReport {
        let set = fix.set
        func value(_ x: Double, _ bit: Int) -> Double? {
            set & UInt32(bit) != 0 ? x : nil
        }
        let time =
            set & UInt32(CGPS_HAS_TIME) != 0
            ? GPSDFixReport.Time(seconds: fix.time_sec, nanoseconds: fix.time_nsec) : nil
        let mode = set & UInt32(CGPS_HAS_MODE) != 0 ? FixMode(rawValue: Int(fix.mode)) ?? .unknown : .unknown
        let hasPosition = set & UInt32(CGPS_HAS_LATLON) != 0
        return GPSDFixReport(
            time: time,
            mode: mode,
            latitude: hasPosition ? fix.latitude : nil,
            longitude: hasPosition ? fix.longitude : nil,
            altitudeMSL: value(fix.alt_msl, CGPS_HAS_ALT_MSL),
            altitudeHAE: value(fix.alt_hae, CGPS_HAS_ALT_HAE),
            geoidSeparation: value(fix.geoid_sep, CGPS_HAS_GEOID_SEP),
            eph: value(fix.eph, CGPS_HAS_EPH),
            epv: value(fix.epv, CGPS_HAS_EPV),
            epx: value(fix.epx, CGPS_HAS_EPX),
            epy: value(fix.epy, CGPS_HAS_EPY),
            speed: value(fix.speed, CGPS_HAS_SPEED),
            track: value(fix.track, CGPS_HAS_TRACK)
        )
    }
}
