import Glibc
import TestSupport

/// Who answers `org.freedesktop.GeoClue2` on the private bus.
enum Server: String {
    /// locationd's `[geoclue]` face, fed by gpsd.
    case locationd
    /// GeoClue 2.6's daemon, fed by locationd's `nmea_socket`, which gpsd feeds.
    case geoclue
    /// The previous build's `[geoclue]` face (`--previous PATH`), set up as
    /// `.locationd` is: the regression guard, alternated in the same run.
    case previous

    /// Whether locationd's own face serves the bus (this build's or the previous one's).
    var isFace: Bool { self != .geoclue }
}

/// One measured setup: a private system bus, gpsd played by gpsfake, locationd
/// on it, and for `.geoclue` GeoClue's daemon and its demo agent, each stopped
/// by its pid.
final class Bed {
    static let whereAmI = "/usr/libexec/geoclue-2.0/demos/where-am-i"
    static let geoclued = "/usr/libexec/geoclue"
    static let agent = "/usr/libexec/geoclue-2.0/demos/agent"
    /// The desktop id where-am-i sets; the probe sets it too.
    static let desktopId = "geoclue-where-am-i"

    let server: Server
    let scratch: ScratchDirectory
    let bus: DBusDaemon
    let fake: GPSFake
    let daemon: ChildProcess
    private(set) var geoclue: ChildProcess?
    private var agent: ChildProcess?
    private(set) var apps: [ChildProcess] = []

    /// The environment of GeoClue's programs: the private bus as the system bus.
    var busEnvironment: ChildEnvironment { .only(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) }

    /// Starts the bus, gpsd playing `walk` (`cycle` seconds a sentence), the
    /// `locationd` binary configured for `server`, and for `.geoclue` GeoClue
    /// and its agent; returns once `org.freedesktop.GeoClue2` has an owner.
    init(_ server: Server, walk: String, cycle: Double, locationd: String) async throws {
        self.server = server
        scratch = try ScratchDirectory("geoclue-bench")
        bus = try await DBusDaemon("bench")
        fake = try await GPSFake.start(log: walk, options: .init(cycle: cycle, once: true, gated: false, linger: 1))
        let nmeaSocket = scratch.file("feed.nmea")
        let clients = switch server {
        case .locationd, .previous:
            // where-am-i's desktop id, allowed without a prompt.
            """
            [geoclue]
            bus = \(bus.address)

            [client.whereami]
            geoclue_id = \(Self.desktopId)
            authorization = always
            distance_filter = none
            desired_accuracy = best
            """
        case .geoclue:
            // One client streaming NMEA to GeoClue's network-nmea source.
            """
            [client.geoclue]
            nmea_socket = \(nmeaSocket)
            authorization = always
            updating = on
            in_use = on
            distance_filter = none
            desired_accuracy = best
            """
        }
        let config = try scratch.write("locationd.conf", """
            [daemon]
            socket = \(scratch.file("control.sock"))
            socket_group =
            state_dir = \(scratch.file("state"))
            log_dir = \(scratch.file("log"))

            [source]
            type = gpsd
            host = 127.0.0.1
            port = \(fake.port)

            \(clients)

            """)
        daemon = try ChildProcess(
            [locationd, "run", "--config", config], environment: .only([:]),
            stdoutPath: scratch.file("locationd.out"))
        let daemon = daemon
        guard await waitUntil(timeout: 60, { daemon.stdout.contains("ready:") }) else {
            throw BenchError("locationd did not start: \(daemon.stdout)")
        }
        if server == .geoclue {
            guard await waitUntil(timeout: 30, { access(nmeaSocket, F_OK) == 0 }) else {
                throw BenchError("locationd made no \(nmeaSocket): \(daemon.stdout)")
            }
            geoclue = try startGeoClue(nmeaSocket: nmeaSocket)
            // GeoClue 2.6 holds every GetClient until an agent for the caller's uid registers.
            agent = try ChildProcess([Self.agent], environment: busEnvironment, stdoutPath: scratch.file("agent.out"))
        }
        guard try await waitUntilAsync(timeout: 60, { try await self.nameIsOwned() }) else {
            throw BenchError("nobody owns org.freedesktop.GeoClue2 on the bus (\(server.rawValue)): \(daemon.stdout)")
        }
    }

    /// GeoClue's daemon with a configuration of the benchmark's own. GeoClue
    /// 2.6 reads /etc/geoclue/geoclue.conf and nothing else (no option names
    /// another file, no conf.d): the file is bind-mounted over it in a mount
    /// namespace of GeoClue's own (unshare(1)), so /etc is never written and
    /// nothing outlives the process. Every source but network-nmea off; the
    /// demo agent allowed; where-am-i's desktop id a system app, which the
    /// agent is not asked about.
    private func startGeoClue(nmeaSocket: String) throws -> ChildProcess {
        let config = try scratch.write("geoclue.conf", """
            [agent]
            whitelist=geoclue-demo-agent

            [network-nmea]
            enable=true
            nmea-socket=\(nmeaSocket)

            [3g]
            enable=false

            [cdma]
            enable=false

            [modem-gps]
            enable=false

            [wifi]
            enable=false

            [compass]
            enable=false

            [\(Self.desktopId)]
            allowed=true
            system=true
            users=

            """)
        // Root may make the mount namespace; anyone else needs a user namespace mapping them to root in it.
        let unshare = getuid() == 0 ? ["unshare", "--mount", "--propagation", "private"]
            : ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private"]
        return try ChildProcess(
            unshare + ["sh", "-c", "mount --bind \"$0\" /etc/geoclue/geoclue.conf && exec \"$1\" --timeout=0 --nmea-socket=\"$2\"",
                       config, Self.geoclued, nmeaSocket],
            environment: busEnvironment, stdoutPath: scratch.file("geoclue.out"))
    }

    /// Whether the GeoClue2 name has an owner on the bus.
    private func nameIsOwned() async throws -> Bool {
        let outcome = try await ChildProcess.run(
            ["dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.GeoClue2"],
            environment: busEnvironment, timeout: 30)
        return outcome.output.contains("boolean true")
    }

    /// Starts `count` where-am-i, each asking for EXACT with no time threshold.
    func startApps(_ count: Int) throws {
        for n in apps.count..<(apps.count + count) {
            apps.append(try ChildProcess(
                [Self.whereAmI, "--timeout=3600"], environment: busEnvironment, stdoutPath: scratch.file("where-am-i-\(n).out")))
        }
    }

    /// The "New location:" lines each app has printed so far.
    func positions() -> [Int] {
        apps.map { Self.count("New location:", in: $0.stdout) }
    }

    static func count(_ needle: String, in text: String) -> Int {
        var n = 0
        var rest = text[...]
        while let range = rest.firstRange(of: needle) {
            n += 1
            rest = rest[range.upperBound...]
        }
        return n
    }

    /// The serving processes' pids: for `.locationd` locationd; for `.geoclue` GeoClue and locationd feeding it.
    var servingPIDs: (geoclue: pid_t?, locationd: pid_t) { (geoclue?.pid, daemon.pid) }

    func stop() {
        apps.forEach { $0.kill() }
        agent?.kill()
        geoclue?.kill()
        daemon.kill()
        fake.stop()
        bus.stop()
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
