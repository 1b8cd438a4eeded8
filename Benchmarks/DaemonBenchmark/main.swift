// locationd against gpsd's own tools, measured in the same run:
//
//  1. Live: `locationd run` and `gpxlogger` attached to one gpsd (gpsfake
//     replaying a long generated walk): CPU time per fix (utime + stime from
//     /proc/PID/stat, counted from when both are connected to when the walk
//     has been played) and peak resident memory (VmHWM).
//  2. Replay: `locationd replay FILE` (parse, engine, log) against
//     `gpsdecode < FILE` (parse, JSON out) on the same file, best of three.
//
// Build the daemon as it ships, then run from the package root:
//
//     swift build -c release --static-swift-stdlib --product locationd
//     swift run -c release DaemonBenchmark [--locationd PATH] [--sentences N] [--cycle S]
//
// Needs gpsd, gpsd-clients (gpsfake, gpxlogger, gpsdecode) and python3-gps.
import Glibc

// MARK: - Options

struct Options {
    var locationd = ".build/release/locationd"
    var sentences = 30_000
    var cycle = 0.001

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--locationd": locationd = rest.popFirst() ?? locationd
            case "--sentences": sentences = rest.popFirst().flatMap { Int($0) } ?? sentences
            case "--cycle": cycle = rest.popFirst().flatMap { Double($0) } ?? cycle
            case "-h", "--help":
                print("usage: DaemonBenchmark [--locationd PATH] [--sentences N] [--cycle SECONDS]")
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
        while now() < deadline {
            var status: Int32 = 0
            var usage = rusage()
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid {
                return seconds(usage.ru_utime) + seconds(usage.ru_stime)
            }
            if result < 0 && errno != EINTR { return 0 }
            sleep(0.005)
        }
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

/// utime + stime of a running process, in seconds.
func cpuSeconds(_ pid: pid_t) -> Double {
    let stat = contents("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return .nan }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return .nan }
    return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
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

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard access(options.locationd, X_OK) == 0 else {
    fail("\(options.locationd) is missing: build it first with `swift build -c release --static-swift-stdlib --product locationd`")
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

let track = "\(work)/bench.nmea"
print("generating a walk of \(options.sentences) sentences (scripts/nmea-fixtures --bench)")
guard system("python3 scripts/nmea-fixtures --bench \(options.sentences) '\(track)' >/dev/null") == 0 else {
    fail("scripts/nmea-fixtures --bench failed (run from the package root)")
}
let trackText = contents(track)
let trackBytes = Double(trackText.utf8.count)
// gpsfake -i consumes one line of its stdin per sentence: one more for every line of the file.
let trackLines = trackText.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }

// 1. Live, both clients on one gpsd.
let port = freePort()
let config = """
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

    [client.logger]
    log = logger.jsonl
    distance_filter = none
    desired_accuracy = best
    authorization = always
    updating = on
    in_use = on
    """
config.withCString { text in
    guard let file = fopen("\(work)/locationd.conf", "w") else { fail("cannot write \(work)/locationd.conf") }
    fputs(text, file)
    fclose(file)
}
var gate: [Int32] = [-1, -1]
guard pipe(&gate) == 0 else { fail("pipe failed") }
_ = fcntl(gate[1], F_SETFD, FD_CLOEXEC)
print("gpsfake on port \(port), \(options.cycle) s between sentences (about \(Int(Double(options.sentences) * options.cycle)) s)")
let gpsfake = Child(
    ["gpsfake", "-q", "-n", "-1", "-i", "-P", String(port), "-c", String(options.cycle), "-W", "3", track],
    output: "\(work)/gpsfake.out", stdinFD: gate[0], newGroup: true)
close(gate[0])
var waited = 0.0
while waited < 15 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    close(fd)
    if connected { break }
    sleep(0.05)
    waited += 0.05
}
let daemon = Child([options.locationd, "run", "--config", "\(work)/locationd.conf"], output: "\(work)/locationd.err")
let gpxlogger = Child(["gpxlogger", "-e", "sockets", "-f", "\(work)/track.gpx", "127.0.0.1:\(port)"], output: "\(work)/gpxlogger.err")
waited = 0
while !contents("\(work)/locationd.err").contains("gpsd: connected") && waited < 15 {
    sleep(0.05)
    waited += 0.05
}
// gpxlogger says nothing when it connects; give it the same second the daemon needed and more.
sleep(1.5)
let daemonStart = cpuSeconds(daemon.pid)
let gpxStart = cpuSeconds(gpxlogger.pid)
let newlines = [UInt8](repeating: 10, count: trackLines + 64)
newlines.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
        let n = write(gate[1], raw.baseAddress! + offset, raw.count - offset)
        if n <= 0 { break }
        offset += n
    }
}
close(gate[1])
// Sample both while gpsd runs: gpxlogger exits when gpsd goes away (gpsfake stops it
// -W 3 s after the last sentence), and /proc no longer has its numbers then.
var daemonCPU = 0.0, gpxCPU = 0.0
var daemonHWM = 0, gpxHWM = 0, daemonAnon = 0, gpxAnon = 0
let deadline = now() + Double(trackLines) * options.cycle * 4 + 60
var played = false
while now() < deadline {
    if gpsfake.wait(timeout: 0.1) != nil {
        played = true
        break
    }
    let d = cpuSeconds(daemon.pid), g = cpuSeconds(gpxlogger.pid)
    if d.isFinite { daemonCPU = d - daemonStart }
    if g.isFinite { gpxCPU = g - gpxStart }
    daemonHWM = max(daemonHWM, statusKB(daemon.pid, "VmHWM"))
    gpxHWM = max(gpxHWM, statusKB(gpxlogger.pid, "VmHWM"))
    daemonAnon = max(daemonAnon, statusKB(daemon.pid, "RssAnon"))
    gpxAnon = max(gpxAnon, statusKB(gpxlogger.pid, "RssAnon"))
}
if !played { kill(-gpsfake.pid, SIGKILL) }
kill(daemon.pid, SIGTERM)
kill(gpxlogger.pid, SIGTERM)
_ = daemon.wait(timeout: 5)
_ = gpxlogger.wait(timeout: 5)
kill(-gpsfake.pid, SIGKILL)
let daemonFixes = count("\"client\":\"logger\"", in: "\(work)/log/logger.jsonl")
let gpxFixes = count("<trkpt", in: "\(work)/track.gpx")

print("")
print("live, one gpsd, both clients attached (locationd: fsync = interval, distance filter none):")
print("  fixes logged:      locationd \(daemonFixes), gpxlogger \(gpxFixes)")
let daemonPerFix = daemonCPU / Double(max(daemonFixes, 1)) * 1e6
let gpxPerFix = gpxCPU / Double(max(gpxFixes, 1)) * 1e6
print("  CPU per fix:       locationd \(format(daemonPerFix, 1)) µs, gpxlogger \(format(gpxPerFix, 1)) µs  (locationd/gpxlogger \(ratio(daemonPerFix, gpxPerFix)))")
print("  peak RSS (VmHWM):  locationd \(daemonHWM) kB, gpxlogger \(gpxHWM) kB  (locationd/gpxlogger \(ratio(Double(daemonHWM), Double(gpxHWM))))")
print("  heap and stacks:   locationd \(daemonAnon) kB, gpxlogger \(gpxAnon) kB  (RssAnon, largest sample; the rest is mapped program and library pages)")
if !played { print("  (gpsfake did not finish: the numbers cover part of the walk)") }

// 2. Replay vs gpsdecode on the same file.
func best(_ arguments: [String], stdin: String?) -> Double {
    var fastest = Double.infinity
    for _ in 0..<3 {
        let fd = stdin.map { open($0, O_RDONLY) }
        let started = now()
        let child = Child(arguments, output: "/dev/null", stdinFD: fd)
        _ = child.wait(timeout: 600)
        fastest = min(fastest, now() - started)
        if let fd { close(fd) }
        _ = system("rm -rf '\(work)/replay'")
    }
    return fastest
}
let replaySeconds = best([options.locationd, "replay", track, "--config", "\(work)/locationd.conf", "--log-dir", "\(work)/replay"], stdin: nil)
let decodeSeconds = best(["gpsdecode"], stdin: track)
print("")
print("replay of \(Int(trackBytes / 1000)) kB (best of 3, wall time):")
print("  locationd replay:  \(format(replaySeconds, 3)) s, \(format(trackBytes / replaySeconds / 1e6, 1)) MB/s (parse, engine, log every fix)")
print("  gpsdecode:         \(format(decodeSeconds, 3)) s, \(format(trackBytes / decodeSeconds / 1e6, 1)) MB/s (parse, JSON to /dev/null)")
print("  speed-up:          \(ratio(decodeSeconds, replaySeconds)) (gpsdecode time / locationd replay time)")
