// locationd's GeoClue face against GeoClue 2.6 itself, in one run (issue #38's two figures):
//
//  * CPU per position per client, with 1 and with 10 `where-am-i` (GeoClue's
//    demo client, package geoclue-2-demo) on a private system bus, the same
//    gpsd feed (gpsfake playing a generated walk, 10 fixes a second by default):
//      (a) locationd with its [geoclue] face, where-am-i's desktop id a
//          configured client allowed always;
//      (b) GeoClue's daemon (package geoclue-2.0) fed by a locationd client's
//          `nmea_socket` (its network-nmea source), with GeoClue's demo agent,
//          since 2.6 holds GetClient until an agent registers.
//    The serving side's CPU time (user + system, each process's CPU-time
//    clock) over a window of positions, divided by the positions all clients
//    printed in that window ("New location:"). For (b) it is given twice:
//    GeoClue alone, and GeoClue plus the locationd that feeds it (the chain
//    that replaces (a)'s locationd). The bus daemon's share is shown apart:
//    it is the same program in both. (a) and (b) alternate, round by round;
//    best and median of the rounds.
//  * TPV → LocationUpdated: a client of the benchmark's own (BusProbe, on
//    sd-bus) notes when each signal reaches it, reads that Location's
//    Timestamp, and a gpsd watcher in the same process notes when gpsd's TPV
//    of that fix time arrived (the last one before the signal: the report
//    that completed the epoch; gpsd writes it to locationd and to the watcher
//    one after the other). Both on this process's monotonic clock.
//
// Run from the package root, the daemon built as it ships:
//
//     make build
//     swift run -c release GeoClueBenchmark [--rounds R] [--window S] [--rate HZ] [--latency N] [--locationd PATH]
//         [--previous PATH]
//
// With --previous, a third setup: the previous build's locationd (e.g.
// scripts/bench-compare's cached .build/bench-compare/COMMIT/locationd) set up
// as (a) is, in the same rounds, the order turned each round, and the ratio
// this build ÷ the previous one printed: a regression of our own code shows
// there, whatever the machine's load.
//
// Needs gpsd and gpsd-clients, dbus-daemon and dbus-send, geoclue-2.0,
// geoclue-2-demo, util-linux's unshare (scripts/packages.txt); GeoClue runs
// with a private configuration bind-mounted over /etc/geoclue/geoclue.conf in
// a mount namespace of its own (root, or a user namespace).
import Glibc
import LocationCore
import LocationValues
import TestSupport

struct Options: Sendable {
    var locationd = ".build/release/locationd"
    /// The previous build's locationd, measured alternated with this one's (`--previous PATH`).
    var previous: String?
    var rounds = 3
    /// Seconds of positions measured per setup.
    var window = 20.0
    /// Fixes a second gpsfake plays (five sentences each).
    var rate = 10.0
    /// Positions timed for the latency.
    var latency = 600
    var clientCounts = [1, 10]
    /// Seconds between two sentences for gpsfake: the walk has five a fix.
    var cycle: Double { 1 / (rate * 5) }

    static let shared = Options(Array(CommandLine.arguments.dropFirst()))

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func number(_ name: String) -> Double {
            guard let text = rest.popFirst(), let value = Double(text), value > 0 else { fail("\(name) needs a positive number") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--locationd": locationd = rest.popFirst() ?? locationd
            case "--previous": previous = rest.popFirst()
            case "--rounds": rounds = Int(number(argument))
            case "--window": window = number(argument)
            case "--rate": rate = number(argument)
            case "--latency": latency = Int(number(argument))
            case "-h", "--help":
                print("usage: GeoClueBenchmark [--rounds R] [--window S] [--rate HZ] [--latency N] [--locationd PATH] [--previous PATH]")
                exit(0)
            default: fail("unknown argument \(argument) (try --help)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    let text = Array("GeoClueBenchmark: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// MARK: - CPU per position

/// One setup's window: CPU seconds of each serving process and of the bus, positions printed by all clients.
struct Window {
    var server: Server
    var clients: Int
    var locationd = 0.0, geoclue = 0.0, bus = 0.0
    var positions = 0

    /// Microseconds per position per client: the serving side (for GeoClue: GeoClue alone, or with its feeder).
    var serving: Double { perPosition(server.isFace ? locationd : geoclue) }
    var chain: Double { perPosition(locationd + geoclue) }
    var busShare: Double { perPosition(bus) }
    func perPosition(_ cpu: Double) -> Double { positions > 0 ? cpu / Double(positions) * 1e6 : .nan }
}

func cpu(_ pid: pid_t?) -> Double {
    pid.flatMap { ProcFS.cpuClockSeconds(of: $0) } ?? 0
}

func measure(_ server: Server, clients: Int, walk: String) async throws -> Window {
    let binary = server == .previous ? Options.shared.previous ?? Options.shared.locationd : Options.shared.locationd
    let bed = try await Bed(server, walk: walk, cycle: Options.shared.cycle, locationd: binary)
    defer { bed.stop() }
    try bed.startApps(clients)
    // Every client has its first positions: their start-up is not counted.
    guard await waitUntil(timeout: 90, { bed.positions().allSatisfy { $0 >= 3 } }) else {
        throw BenchError("\(server.rawValue): not every where-am-i got positions: \(bed.positions()) — \(bed.apps.first?.stdout ?? "")")
    }
    let pids = bed.servingPIDs
    let start = (locationd: cpu(pids.locationd), geoclue: cpu(pids.geoclue), bus: cpu(bed.bus.pid), positions: bed.positions().reduce(0, +))
    _ = await pause(Options.shared.window)
    let end = (locationd: cpu(pids.locationd), geoclue: cpu(pids.geoclue), bus: cpu(bed.bus.pid), positions: bed.positions().reduce(0, +))
    return Window(
        server: server, clients: clients, locationd: end.locationd - start.locationd, geoclue: end.geoclue - start.geoclue,
        bus: end.bus - start.bus, positions: end.positions - start.positions)
}

// MARK: - Latency

/// TPV → LocationUpdated at the probe, in seconds, one per timed position.
func latencies(_ server: Server, walk: String) async throws -> (seconds: [Double], unmatched: Int, queued: Int) {
    let bed = try await Bed(server, walk: walk, cycle: Options.shared.cycle, locationd: Options.shared.locationd)
    defer { bed.stop() }
    let watcher = try await GPSDJSONWatcher.connect(port: bed.fake.port)
    defer { watcher.disconnect() }
    guard await waitUntil(timeout: 30, { watcher.isWatching }) else { throw BenchError("gpsd did not acknowledge the watch") }
    let probe = try BusProbe(address: bed.bus.address)
    try probe.start(desktopId: Bed.desktopId)
    // A few seconds of steady state first, then the timed positions.
    try probe.pump(for: 3, until: Int.max)
    let skipped = probe.arrivals.count
    try probe.pump(for: Double(Options.shared.latency) / Options.shared.rate * 3 + 30, until: skipped + Options.shared.latency)
    // gpsd's TPVs by fix time (to the millisecond), when each arrived.
    var tpvs: [Int: [Double]] = [:]
    for (text, at) in watcher.timedLines where text.contains("\"class\":\"TPV\"") {
        guard let report = try? JSONValue.parse(text), let time = report["time"]?.stringValue.flatMap(UTCTime.parse) else { continue }
        tpvs[key(time), default: []].append(at)
    }
    var seconds: [Double] = []
    var unmatched = 0
    for arrival in probe.arrivals.dropFirst(skipped) {
        guard let completing = tpvs[key(arrival.fixTime)]?.last(where: { $0 <= arrival.at }) else {
            unmatched += 1
            continue
        }
        seconds.append(arrival.at - completing)
    }
    return (seconds, unmatched, probe.queued)
}

/// A fix time to the millisecond within its day: GeoClue dates an NMEA fix with today's date, whatever the RMC says.
func key(_ time: Double) -> Int {
    Int((time * 1000).rounded()) % 86_400_000
}

/// The `q` quantile by the nearest rank (the fault suite's), NaN when there is none.
func quantile(_ values: [Double], _ q: Double) -> Double {
    values.isEmpty ? .nan : FaultReport.quantile(values, q)
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    FixedDecimal.format(value, decimals: digits) ?? "n/a"
}

func loadAverage() -> String {
    let fields = (FileIO.text("/proc/loadavg") ?? "").split(separator: " ")
    return fields.count >= 3 ? fields[0..<3].joined(separator: " ") : "n/a"
}

// MARK: - The run

let options = Options.shared
guard access(options.locationd, X_OK) == 0 else {
    fail("\(options.locationd) is missing: build it first with `make build` (the release build as it ships)")
}
if let previous = options.previous, access(previous, X_OK) != 0 {
    fail("\(previous) (--previous) is missing: scripts/bench-compare REV builds and caches a revision's locationd")
}
/// The setups of a round, turned round every round so each sees the machine early and late.
@MainActor
func setups(_ round: Int) -> [Server] {
    let all: [Server] = options.previous == nil ? [.locationd, .geoclue] : [.locationd, .previous, .geoclue]
    let turn = (round - 1) % all.count
    return Array(all[turn...] + all[..<turn])
}
for tool in [Bed.whereAmI, Bed.geoclued, Bed.agent] where access(tool, X_OK) != 0 {
    fail("\(tool) is missing: scripts/install-deps installs geoclue-2.0 and geoclue-2-demo")
}
guard GPSFake.isAvailable, ExternalTool.isAvailable("dbus-daemon", "dbus-send", "unshare", "python3") else {
    fail("needs gpsfake (gpsd, gpsd-clients, python3-gps), dbus-daemon, dbus-send and unshare: scripts/install-deps")
}
let files = try ScratchDirectory("geoclue-bench-walk")
let walk = files.file("walk.nmea")
// One hour of 1 Hz walking: far more than any setup plays.
let generated = try await ChildProcess.run(["python3", "scripts/nmea-fixtures", "--bench", "18000", walk], timeout: 120)
guard generated.status == 0 else { fail("scripts/nmea-fixtures --bench failed (run from the package root): \(generated.stderr)") }

let loadBefore = loadAverage()
var windows: [Window] = []
do {
    for round in 1...options.rounds {
        for clients in options.clientCounts {
            for server in setups(round) {
                let window = try await measure(server, clients: clients, walk: walk)
                print("round \(round), \(server.rawValue), \(clients) where-am-i: \(window.positions) positions, "
                    + "\(format(window.serving)) µs each (chain \(format(window.chain)), bus \(format(window.busShare))), load \(loadAverage())")
                windows.append(window)
            }
        }
    }
} catch {
    fail("\(error)")
}
var timed: [Server: (seconds: [Double], unmatched: Int, queued: Int)] = [:]
do {
    for server in [Server.locationd, .geoclue] {
        timed[server] = try await latencies(server, walk: walk)
        print("latency, \(server.rawValue): \(timed[server]!.seconds.count) positions timed, load \(loadAverage())")
    }
} catch {
    fail("\(error)")
}
let loadAfter = loadAverage()

@MainActor
func figures(_ server: Server, _ clients: Int, _ value: (Window) -> Double) -> (best: Double, median: Double) {
    let values = windows.filter { $0.server == server && $0.clients == clients }.map(value).filter(\.isFinite)
    return (values.min() ?? .nan, quantile(values, 0.5))
}

print("")
print("GeoClueBenchmark — load average \(loadBefore) before, \(loadAfter) after; \(options.rounds) rounds, "
    + "\(format(options.window, 0)) s windows, \(format(options.rate, 0)) fixes/s (2-core machine: compare the ratios of one run)")
print("")
print("| µs of CPU per position per client, best / median of \(options.rounds) | \(options.clientCounts.map { "\($0) where-am-i" }.joined(separator: " | ")) |")
print("|---|" + options.clientCounts.map { _ in "---|" }.joined())
@MainActor
func row(_ label: String, _ server: Server, _ value: @escaping (Window) -> Double) {
    print("| \(label) | " + options.clientCounts.map { clients in
        let f = figures(server, clients, value)
        return "\(format(f.best)) / \(format(f.median))"
    }.joined(separator: " | ") + " |")
}
row("(a) locationd, its GeoClue face", .locationd, \.serving)
row("(b) GeoClue 2.6", .geoclue, \.serving)
row("(b) GeoClue 2.6 plus the locationd feeding it", .geoclue, \.chain)
row("dbus-daemon, (a)", .locationd, \.busShare)
row("dbus-daemon, (b)", .geoclue, \.busShare)
print("| (a) ÷ GeoClue alone, medians (target ≤ 0.5x) | " + options.clientCounts.map { clients in
    format(figures(.locationd, clients, \.serving).median / figures(.geoclue, clients, \.serving).median, 2) + "x"
}.joined(separator: " | ") + " |")
if options.previous != nil {
    row("(a) the previous build's face (--previous)", .previous, \.serving)
    print("| (a) ÷ the previous build, medians (regression guard) | " + options.clientCounts.map { clients in
        format(figures(.locationd, clients, \.serving).median / figures(.previous, clients, \.serving).median, 2) + "x"
    }.joined(separator: " | ") + " |")
    print("| (a) ÷ the previous build, bests | " + options.clientCounts.map { clients in
        format(figures(.locationd, clients, \.serving).best / figures(.previous, clients, \.serving).best, 2) + "x"
    }.joined(separator: " | ") + " |")
}
print("| (a) ÷ GeoClue with its feeder, medians | " + options.clientCounts.map { clients in
    format(figures(.locationd, clients, \.serving).median / figures(.geoclue, clients, \.chain).median, 2) + "x"
}.joined(separator: " | ") + " |")
print("")
print("| TPV → LocationUpdated at the client | p50 | p99 | max | positions timed |")
print("|---|---|---|---|---|")
for server in [Server.locationd, .geoclue] {
    guard let result = timed[server] else { continue }
    let ms = result.seconds.map { $0 * 1000 }
    let label = server == .locationd ? "(a) locationd (target p99 ≤ 5 ms)" : "(b) GeoClue fed by locationd"
    print("| \(label) | \(format(quantile(ms, 0.5), 2)) ms | \(format(quantile(ms, 0.99), 2)) ms | \(format(ms.max() ?? .nan, 2)) ms | "
        + "\(ms.count) (unmatched \(result.unmatched), read from the queue \(result.queued)) |")
}
