// locationd against gpsd's own tools, measured in the same run, printed as
// one table of ratios (issue #10's table):
//
//  * Live, at two fix rates: `locationd run` and `gpxlogger` attached to one
//    gpsd (gpsfake replaying a generated walk): CPU time per fix logged
//    (each process's CPU-time clock, to the nanosecond, over the first half
//    of the walk but its first 50 fixes, whose CPU is shown apart), split
//    into user and system time (/proc/PID/stat, in 10 ms clock ticks), and
//    peak resident memory (VmHWM, RssAnon, over the whole walk). Over the
//    second half a third gpsd client (`LatencyProbe`) times each TPV → log
//    line: from the TPV that completed the epoch to the line being readable
//    in the log (inotify). Not over the first: the kernel charges each
//    inotify event, and waking the probe, to the process that wrote the line.
//    gpxlogger connects first; then both rates again with locationd
//    connected first (gpsd wakes its clients in the order they connected,
//    which moves each one's CPU per fix), and the two orders' mean ratio.
//  * Replay: `locationd replay FILE...` (parse, engine, log every fix) against
//    `gpsdecode < FILE` (parse, JSON out) on the same file, best of three;
//    and replay's CPU per fix with 1 and with 100 clients.
//  * Start → READY (the daemon's `ready:` line) and SIGTERM → exit.
//
// The load average is printed with the table: on a shared machine compare
// the ratios of one run, not absolute figures across runs.
//
// Build the daemon as it ships, then run from the package root:
//
//     make build   # release, --static-swift-stdlib, function sections and link order
//     swift run -c release DaemonBenchmark [--locationd PATH] [--replay-fixes N]
//
// Needs gpsd, gpsd-clients (gpsfake, gpxlogger, gpsdecode) and python3-gps.
import Glibc

// MARK: - Options

struct Options {
    var locationd = ".build/release/locationd"
    /// Fixes of the replay file (about 4.2 sentences each).
    var replayFixes = 400_000
    /// Live runs: (sentences, seconds between sentences). The walk has five
    /// sentences per fix, so these ask gpsfake for 80 and 240 fixes/s; the table
    /// gives the rate it reached.
    var live: [(sentences: Int, cycle: Double)] = [(12_000, 0.0025), (30_000, 0.000833)]
    /// Sentences (50 fixes) played before the CPU per fix is read, their CPU
    /// shown apart: the first pass over each logger's fix path.
    static let warmUpSentences = 250

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--locationd": locationd = rest.popFirst() ?? locationd
            case "--replay-fixes": replayFixes = rest.popFirst().flatMap { Int($0) } ?? replayFixes
            case "--quick": live = [(4_000, 0.003), (10_000, 0.001)]; replayFixes = 50_000
            case "-h", "--help":
                print("usage: DaemonBenchmark [--locationd PATH] [--replay-fixes N] [--quick]")
                exit(0)
            default:
                fail("unknown argument \(argument) (try --help)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    let text = Array("DaemonBenchmark: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// MARK: - Processes

/// A started program: its pid, reaped by `wait`.
struct Child {
    var pid: pid_t
    var name: String

    /// Starts `arguments` with stdin from `stdinFD` (or /dev/null) and stdout/stderr to `output`.
    init(_ arguments: [String], output: String, stdinFD: Int32? = nil, newGroup: Bool = false) {
        name = arguments[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinFD {
            posix_spawn_file_actions_adddup2(&actions, stdinFD, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if newGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        let pointers = arguments.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        var argv = pointers + [nil]
        var child: pid_t = 0
        let status = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
        guard status == 0 else { fail("cannot start \(arguments[0]): \(String(cString: strerror(status)))") }
        pid = child
    }

    /// Waits up to `timeout` seconds; returns the rusage CPU seconds, or nil if it is still running.
    func wait(timeout: Double) -> Double? {
        let deadline = now() + timeout
        repeat {
            var status: Int32 = 0
            var usage = rusage()
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid {
                return seconds(usage.ru_utime) + seconds(usage.ru_stime)
            }
            if result < 0 && errno != EINTR { return 0 }
            if now() < deadline { sleep(0.005) }
        } while now() < deadline
        return nil
    }
}

func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func sleep(_ s: Double) {
    var request = timespec(tv_sec: Int(s), tv_nsec: Int((s - Double(Int(s))) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

func contents(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        text += buffer[0..<n]
    }
    return String(decoding: text, as: UTF8.self)
}

/// The CPU time of a running process, all its threads (those gone too), in
/// seconds to the nanosecond: its POSIX CPU-time clock, which the kernel keeps
/// from each thread's run time, where /proc/PID/stat's utime and stime come in
/// 10 ms clock ticks. NaN once it is gone.
func cpuSeconds(_ pid: pid_t) -> Double {
    var clock = clockid_t()
    var time = timespec()
    guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 else { return .nan }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// utime and stime of a running process, in seconds (NaN once it is gone).
func cpuSplit(_ pid: pid_t) -> (user: Double, system: Double) {
    let stat = contents("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return (.nan, .nan) }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return (.nan, .nan) }
    let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (utime / tick, stime / tick)
}

/// A kB figure of /proc/PID/status (`VmHWM`: peak resident memory; `RssAnon`:
/// resident heap and stacks, without the pages of mapped files), or 0.
func statusKB(_ pid: pid_t, _ key: String) -> Int {
    for line in contents("/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix(key + ":") {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return fields.count > 1 ? Int(fields[1]) ?? 0 : 0
    }
    return 0
}

func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

func count(_ needle: String, in path: String) -> Int {
    contents(path).split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
        var n = 0
        var rest = line[...]
        while let range = rest.firstRange(of: needle) {
            n += 1
            rest = rest[range.upperBound...]
        }
        return total + n
    }
}

func ratio(_ a: Double, _ b: Double) -> String {
    guard a.isFinite, b.isFinite, b > 0 else { return "n/a" }
    return format(a / b, 2) + "x"
}

func format(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value * scale).rounded() / scale
    return "\(scaled)"
}

// MARK: - The run

func loadAverage() -> String {
    let fields = contents("/proc/loadavg").split(separator: " ")
    return fields.count >= 3 ? "\(fields[0]) \(fields[1]) \(fields[2])" : "n/a"
}

func writeFile(_ path: String, _ text: String) {
    text.withCString { bytes in
        guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
        fputs(bytes, file)
        fclose(file)
    }
}

func config(port: Int, clients: Int) -> String {
    var text = """
        [daemon]
        socket = \(work)/control.sock
        socket_group =
        state_dir = \(work)/state
        log_dir = \(work)/log
        fsync = interval

        [source]
        type = gpsd
        host = 127.0.0.1
        port = \(port)

        """
    for n in 0..<clients {
        text += """

            [client.\(n == 0 ? "logger" : "c\(n)")]
            log = \(n == 0 ? "logger" : "c\(n)").jsonl
            distance_filter = none
            desired_accuracy = best
            authorization = always
            updating = on
            in_use = on

            """
    }
    return text
}

func generate(_ sentences: Int, _ path: String) {
    guard system("python3 scripts/nmea-fixtures --bench \(sentences) '\(path)' >/dev/null") == 0 else {
        fail("scripts/nmea-fixtures --bench failed (run from the package root)")
    }
}

/// A TCP connection to 127.0.0.1:`port`, or nil if nothing accepts there.
func connectLoopback(_ port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else {
        close(fd)
        return nil
    }
    return fd
}

func waitForPort(_ port: Int) {
    var waited = 0.0
    while waited < 15 {
        if let fd = connectLoopback(port) {
            close(fd)
            return
        }
        sleep(0.05)
        waited += 0.05
    }
}

struct Live {
    var fixesPerSecond = 0.0
    var daemonFixes = 0, gpxFixes = 0
    /// Fixes each had logged when the CPU was read (the first half of the walk).
    var cpuFixes = 0, cpuGpxFixes = 0
    /// The warm-up's CPU seconds and fixes (locationd, gpxlogger).
    var warmDaemonCPU = Double.nan, warmGpxCPU = Double.nan, warmFixes = 0, warmGpxFixes = 0
    var daemonPerFix = Double.nan, gpxPerFix = Double.nan
    var daemonHWM = 0, gpxHWM = 0, daemonAnon = 0, gpxAnon = 0
    var ready = Double.nan, stop = Double.nan
    var played = false
    /// User and system CPU seconds over the measured stretch.
    var daemonSplit = (user: 0.0, system: 0.0), gpxSplit = (user: 0.0, system: 0.0)
    /// TPV → log line: median and 99th percentile (seconds), lines matched.
    var latency50 = Double.nan, latency99 = Double.nan, latencyLines = 0
}

/// Which logger connects to gpsd first. gpsd writes each report to its
/// clients in the order of its client slots, the first free one going to
/// each new client, so the one that connected first is woken first. On a
/// small machine that moves a logger's CPU per fix by as much as the gap
/// between the two, so each rate is run both ways.
enum FirstClient {
    case gpxlogger, locationd
}

/// One live run: gpsfake plays `sentences` at `cycle` to one gpsd; locationd
/// and gpxlogger both log it, `first` connecting first.
func live(sentences: Int, cycle: Double, first: FirstClient) -> Live {
    var result = Live()
    let track = "\(work)/live-\(sentences).nmea"
    generate(sentences, track)
    let trackText = contents(track)
    // gpsfake -i consumes one line of its stdin per sentence: one more for every line of the file.
    let trackLines = trackText.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    _ = system("rm -rf '\(work)/log' '\(work)/state' '\(work)/track.gpx'")
    let port = freePort()
    writeFile("\(work)/locationd.conf", config(port: port, clients: 1))
    var gate: [Int32] = [-1, -1]
    guard pipe(&gate) == 0 else { fail("pipe failed") }
    _ = fcntl(gate[1], F_SETFD, FD_CLOEXEC)
    let gpsfake = Child(
        ["gpsfake", "-q", "-n", "-1", "-i", "-P", String(port), "-c", String(cycle), "-W", "3", track],
        output: "\(work)/gpsfake.out", stdinFD: gate[0], newGroup: true)
    close(gate[0])
    waitForPort(port)
    func startGpxlogger() -> Child {
        Child(["gpxlogger", "-e", "sockets", "-f", "\(work)/track.gpx", "127.0.0.1:\(port)"], output: "\(work)/gpxlogger.err")
    }
    // gpxlogger says nothing when it connects: it is given a second.
    var firstLogger = first == .gpxlogger ? startGpxlogger() : nil
    if firstLogger != nil { sleep(1.0) }
    let spawned = now()
    let daemon = Child([options.locationd, "run", "--config", "\(work)/locationd.conf"], output: "\(work)/locationd.err")
    var waited = 0.0
    while !contents("\(work)/locationd.err").contains("ready:") && waited < 15 {
        sleep(0.001)
        waited = now() - spawned
    }
    result.ready = now() - spawned
    while !contents("\(work)/locationd.err").contains("gpsd: connected") && now() - spawned < 15 { sleep(0.05) }
    if firstLogger == nil { firstLogger = startGpxlogger() }
    sleep(1.0)
    let gpxlogger = firstLogger!
    let logPath = "\(work)/log/logger.jsonl"
    func feed(_ lines: Int) {
        let newlines = [UInt8](repeating: 10, count: lines)
        newlines.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(gate[1], raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
    func sampleMemory() {
        result.daemonHWM = max(result.daemonHWM, statusKB(daemon.pid, "VmHWM"))
        result.gpxHWM = max(result.gpxHWM, statusKB(gpxlogger.pid, "VmHWM"))
        result.daemonAnon = max(result.daemonAnon, statusKB(daemon.pid, "RssAnon"))
        result.gpxAnon = max(result.gpxAnon, statusKB(gpxlogger.pid, "RssAnon"))
    }
    // gpsfake stops at the gate once it has read the lines fed: a stretch is
    // done when the daemon's log has stopped growing for half a second.
    // Returns when it last grew.
    func settle(_ lines: Int) -> Double {
        var size = -1, still = now()
        let deadline = now() + Double(lines) * cycle * 4 + 60
        while now() < deadline {
            sleep(0.1)
            sampleMemory()
            var info = stat()
            let grown = stat(logPath, &info) == 0 ? Int(info.st_size) : -1
            if grown != size {
                size = grown
                still = now()
            } else if now() - still >= 0.5 {
                break
            }
        }
        return still
    }
    // The first fixes after connecting: each logger's first pass over its fix
    // path (page faults, first allocations, the log file's first blocks),
    // counted apart from the steady state.
    let warmClockStart = (cpuSeconds(daemon.pid), cpuSeconds(gpxlogger.pid))
    feed(Options.warmUpSentences)
    _ = settle(Options.warmUpSentences)
    result.warmFixes = count("\"client\":\"logger\"", in: logPath)
    result.warmGpxFixes = count("<trkpt", in: "\(work)/track.gpx")
    // The rest of the first half of the walk: CPU per fix, with nothing but
    // the two loggers on gpsd. (The latency probe watches the daemon's log
    // with inotify, and each event it is sent is charged to the process that
    // wrote the line: had it watched this half, the daemon would pay for the
    // probe and gpxlogger not.)
    let daemonStart = cpuSplit(daemon.pid), daemonClockStart = cpuSeconds(daemon.pid)
    let gpxStart = cpuSplit(gpxlogger.pid), gpxClockStart = cpuSeconds(gpxlogger.pid)
    result.warmDaemonCPU = daemonClockStart - warmClockStart.0
    result.warmGpxCPU = gpxClockStart - warmClockStart.1
    let started = now()
    let firstHalf = trackLines / 2
    feed(firstHalf - Options.warmUpSentences)
    let still = settle(firstHalf - Options.warmUpSentences)
    let daemonCPU = cpuSeconds(daemon.pid) - daemonClockStart
    let gpxCPU = cpuSeconds(gpxlogger.pid) - gpxClockStart
    let d = cpuSplit(daemon.pid), g = cpuSplit(gpxlogger.pid)
    result.daemonSplit = (d.user - daemonStart.user, d.system - daemonStart.system)
    result.gpxSplit = (g.user - gpxStart.user, g.system - gpxStart.system)
    result.cpuFixes = count("\"client\":\"logger\"", in: logPath) - result.warmFixes
    result.cpuGpxFixes = count("<trkpt", in: "\(work)/track.gpx") - result.warmGpxFixes
    result.fixesPerSecond = Double(result.cpuFixes) / max(still - started, 0.001)

    // Second half: the latency probe attaches, as a third gpsd client.
    var probe = LatencyProbe(port: port, log: logPath)
    if probe == nil { print("  (could not start the latency probe: no TPV → log line figure)") }
    feed(trackLines - firstHalf + 64)
    close(gate[1])
    // Sample while gpsd runs: gpxlogger exits when gpsd goes away (gpsfake stops it
    // -W 3 s after the last sentence), and /proc no longer has its numbers then.
    let deadline = now() + Double(trackLines) * cycle * 4 + 60
    while now() < deadline {
        if probe != nil { probe!.pump(for: 0.1) } else { sleep(0.1) }
        if gpsfake.wait(timeout: 0) != nil {
            result.played = true
            break
        }
        sampleMemory()
    }
    if let done = probe {
        result.latency50 = done.quantile(0.5)
        result.latency99 = done.quantile(0.99)
        result.latencyLines = done.latencies.count
        done.finish()
    }
    if !result.played { kill(-gpsfake.pid, SIGKILL) }
    let asked = now()
    kill(daemon.pid, SIGTERM)
    _ = daemon.wait(timeout: 5)
    result.stop = now() - asked
    kill(gpxlogger.pid, SIGTERM)
    _ = gpxlogger.wait(timeout: 5)
    kill(-gpsfake.pid, SIGKILL)
    result.daemonFixes = count("\"client\":\"logger\"", in: "\(work)/log/logger.jsonl")
    result.gpxFixes = count("<trkpt", in: "\(work)/track.gpx")
    result.daemonPerFix = daemonCPU / Double(max(result.cpuFixes, 1)) * 1e6
    result.gpxPerFix = gpxCPU / Double(max(result.cpuGpxFixes, 1)) * 1e6
    return result
}

/// Best of three: wall seconds and the CPU seconds of that run, and the lines replay logged for `logger`.
func best(_ arguments: [String], stdin: String?) -> (wall: Double, cpu: Double, logged: Int) {
    var fastest = (wall: Double.infinity, cpu: Double.nan, logged: 0)
    for _ in 0..<3 {
        let fd = stdin.map { open($0, O_RDONLY) }
        let started = now()
        let child = Child(arguments, output: "/dev/null", stdinFD: fd)
        let cpu = child.wait(timeout: 900) ?? .nan
        let wall = now() - started
        if wall < fastest.wall {
            fastest = (wall, cpu, contents("\(work)/replay/logger.jsonl").utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) })
        }
        if let fd { close(fd) }
        _ = system("rm -rf '\(work)/replay'")
    }
    return fastest
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard access(options.locationd, X_OK) == 0 else {
    fail("\(options.locationd) is missing: build it first with `make build` (the release build as it ships)")
}
for tool in ["/usr/bin/gpsfake", "/usr/bin/gpxlogger", "/usr/bin/gpsdecode", "/usr/bin/python3"] where access(tool, X_OK) != 0 {
    fail("\(tool) is missing: scripts/install-deps installs it")
}
var template = Array("/tmp/locationd-bench-XXXXXX".utf8CString)
guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
    fail("mkdtemp failed")
}
let work = String(cString: made)
defer { _ = system("rm -rf '\(work)'") }

let loadBefore = loadAverage()
var lives: [Live] = []
for run in options.live {
    print("live, gpxlogger connected first: \(run.sentences) sentences, \(run.cycle) s apart")
    lives.append(live(sentences: run.sentences, cycle: run.cycle, first: .gpxlogger))
}
// The same runs with locationd connected first.
var daemonFirst: [Live] = []
for run in options.live {
    print("live, locationd connected first: \(run.sentences) sentences, \(run.cycle) s apart")
    daemonFirst.append(live(sentences: run.sentences, cycle: run.cycle, first: .locationd))
}

// Replay vs gpsdecode on one file of about `replayFixes` fixes; then 1 and 100 clients on a smaller one.
let replayTrack = "\(work)/replay.nmea"
print("replay: generating about \(options.replayFixes) fixes")
generate(options.replayFixes * 25 / 6, replayTrack)
let replayBytes = Double(contents(replayTrack).utf8.count)
writeFile("\(work)/one.conf", config(port: 2947, clients: 1))
writeFile("\(work)/hundred.conf", config(port: 2947, clients: 100))
let replay = best([options.locationd, "replay", replayTrack, "--config", "\(work)/one.conf", "--log-dir", "\(work)/replay"], stdin: nil)
let decode = best(["gpsdecode"], stdin: replayTrack)
let smallTrack = "\(work)/live-\(options.live.last!.sentences).nmea"
let one = best([options.locationd, "replay", smallTrack, "--config", "\(work)/one.conf", "--log-dir", "\(work)/replay"], stdin: nil)
let hundred = best([options.locationd, "replay", smallTrack, "--config", "\(work)/hundred.conf", "--log-dir", "\(work)/replay"], stdin: nil)
let loadAfter = loadAverage()
let smallFixes = Double(max(one.logged, 1))

func split(_ live: Live) -> String {
    let fixes = Double(max(live.cpuFixes, 1)), gpx = Double(max(live.cpuGpxFixes, 1))
    return "\(format(live.daemonSplit.user / fixes * 1e6, 1)) + \(format(live.daemonSplit.system / fixes * 1e6, 1)) vs "
        + "\(format(live.gpxSplit.user / gpx * 1e6, 1)) + \(format(live.gpxSplit.system / gpx * 1e6, 1)) µs"
}
func cpuRatio(_ live: Live?) -> String {
    guard let live else { return "n/a" }
    return "\(ratio(live.daemonPerFix, live.gpxPerFix)) (\(format(live.daemonPerFix, 1)) vs \(format(live.gpxPerFix, 1)) µs, \(rate(live)))"
}
func meanRatio(_ one: Live, _ other: Live?) -> String {
    guard let other else { return "n/a" }
    let mean = (one.daemonPerFix / one.gpxPerFix + other.daemonPerFix / other.gpxPerFix) / 2
    return format(mean, 2) + "x"
}
func warm(_ live: Live) -> String {
    "\(ratio(live.warmDaemonCPU, live.warmGpxCPU)) (\(format(live.warmDaemonCPU * 1000, 2)) vs \(format(live.warmGpxCPU * 1000, 2)) ms, "
        + "\(live.warmFixes) / \(live.warmGpxFixes) fixes)"
}
func latency(_ live: Live) -> String {
    "\(format(live.latency50 * 1000, 2)) / \(format(live.latency99 * 1000, 2)) ms (\(live.latencyLines) lines)"
}
func rate(_ live: Live) -> String { "\(Int(live.fixesPerSecond.rounded())) fixes/s" }
let slow = lives[0], fast = lives[lives.count - 1]

print("")
print("DaemonBenchmark — load average \(loadBefore) before, \(loadAfter) after (2-core machine: ratios within this run are what count)")
print("")
print("| metric | \(rate(slow)) | \(rate(fast)) | target |")
print("|---|---|---|---|")
print("| `locationd run` CPU per fix vs `gpxlogger` on the same gpsd (first half of the walk, after the first 50 fixes), gpxlogger connected first | \(cpuRatio(slow)) | \(cpuRatio(fast)) | — |")
print("| the same, locationd connected first | \(cpuRatio(daemonFirst.first)) | \(cpuRatio(daemonFirst.last)) | — |")
print("| the mean of the two orders | \(meanRatio(slow, daemonFirst.first)) | \(meanRatio(fast, daemonFirst.last)) | ≤ 1.0x at both rates |")
print("| the same, user + system µs per fix (locationd vs gpxlogger; 10 ms ticks) | \(split(slow)) | \(split(fast)) | — |")
print("| the first fixes after connecting, CPU in all (locationd vs gpxlogger) | \(warm(slow)) | \(warm(fast)) | — |")
print("| peak RSS (`VmHWM`) vs gpxlogger | \(ratio(Double(slow.daemonHWM), Double(slow.gpxHWM))) (\(format(Double(slow.daemonHWM) / 1024, 1)) vs \(format(Double(slow.gpxHWM) / 1024, 1)) MB) | \(ratio(Double(fast.daemonHWM), Double(fast.gpxHWM))) (\(format(Double(fast.daemonHWM) / 1024, 1)) vs \(format(Double(fast.gpxHWM) / 1024, 1)) MB) | ≤ 2x |")
print("| heap and stacks (`RssAnon`) vs gpxlogger | \(ratio(Double(slow.daemonAnon), Double(slow.gpxAnon))) (\(slow.daemonAnon) vs \(slow.gpxAnon) kB) | \(ratio(Double(fast.daemonAnon), Double(fast.gpxAnon))) (\(fast.daemonAnon) vs \(fast.gpxAnon) kB) | — |")
print("| fixes logged (locationd / gpxlogger), in all and when the CPU was read | \(slow.daemonFixes) / \(slow.gpxFixes), \(slow.cpuFixes) / \(slow.cpuGpxFixes) | \(fast.daemonFixes) / \(fast.gpxFixes), \(fast.cpuFixes) / \(fast.cpuGpxFixes) | equal |")
print("| `locationd replay` of \(replay.logged / 1000) k fixes (all logged) vs `gpsdecode`, wall time | \(ratio(decode.wall, replay.wall)) faster (\(format(replay.wall, 3)) vs \(format(decode.wall, 3)) s, \(format(replayBytes / replay.wall / 1e6, 1)) vs \(format(replayBytes / decode.wall / 1e6, 1)) MB/s) | | ≥ 6x faster |")
print("| replay CPU per fix, 100 clients (1 client) | \(format(hundred.cpu / smallFixes * 1e6, 1)) µs (\(format(one.cpu / smallFixes * 1e6, 2)) µs), \(Int(smallFixes)) fixes | | ≤ 10 µs |")
print("| TPV → log line, median / p99 (second half) | \(latency(slow)) | \(latency(fast)) | keep (p99 0.30 ms) |")
print("| start → READY / SIGTERM → exit | \(format(slow.ready * 1000, 1)) ms / \(format(slow.stop * 1000, 1)) ms | \(format(fast.ready * 1000, 1)) ms / \(format(fast.stop * 1000, 1)) ms | keep (5.5 ms / 3.4 ms) |")
if !(slow.played && fast.played) { print("(gpsfake did not finish a run: its numbers cover part of the walk)") }
