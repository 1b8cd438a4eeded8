// Parser throughput against gpsd's own decoder, on the same file in the same run.
//
//     swift run -c release ParserBenchmark [--sentences N] [--runs R]
//
// Generates a walk of at least N (default 500 000) NMEA sentences with the
// project's fixture generator (scripts/nmea-fixtures --bench), then times
// `gpsdecode < file > /dev/null` and NMEAParser reading the same file in
// 64 KiB chunks, R times each (default 3), and reports the best of each:
// wall-clock and CPU time, sentences per second, and the ratio.
#if canImport(Glibc)
import Glibc
#endif
import LocationCodecs
import LocationCore

struct Options {
    var sentences = 500_000
    var runs = 3

    init(_ arguments: [String]) {
        var k = 1
        while k < arguments.count {
            let value = k + 1 < arguments.count ? Int(arguments[k + 1]) : nil
            switch (arguments[k], value) {
            case ("--sentences", let v?) where v > 0: sentences = v
            case ("--runs", let v?) where v > 0: runs = v
            default:
                fail("usage: ParserBenchmark [--sentences N] [--runs R]", status: 2)
            }
            k += 2
        }
    }
}

struct Timing {
    var wall: Double
    var cpu: Double
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    var line = Array("ParserBenchmark: \(message)\n".utf8)
    _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func processCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs a program with stdin and stdout redirected; returns wall and the
/// child's CPU time (user + system, from wait4).
func spawn(_ path: String, _ arguments: [String], stdin: String, stdout: String) -> (status: Int32, timing: Timing) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = now()
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
        fail("cannot run \(path): \(String(cString: strerror(errno)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        if errno != EINTR { fail("wait for \(path): \(String(cString: strerror(errno)))") }
    }
    let wall = now() - start
    let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exit, Timing(wall: wall, cpu: cpu))
}

/// Reads `path` in 64 KiB chunks through a fresh parser, as `locationd replay` does.
func parse(_ path: String) -> (statistics: NMEAStatistics, fixes: Int, timing: Timing) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    defer { buffer.deallocate() }
    let startWall = now(), startCPU = processCPU()
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { fail("cannot open \(path): \(String(cString: strerror(errno)))") }
    var parser = NMEAParser()
    var fixes = 0
    while true {
        let n = read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { fail("read \(path): \(String(cString: strerror(errno)))") }
        if n == 0 { break }
        parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { if $0.isUsable { fixes += 1 } }
    }
    parser.finish { if $0.isUsable { fixes += 1 } }
    close(fd)
    return (parser.statistics, fixes, Timing(wall: now() - startWall, cpu: processCPU() - startCPU))
}

func rate(_ count: Int, _ seconds: Double) -> String {
    let perSecond = Double(count) / max(seconds, 1e-9)
    return perSecond >= 1e6 ? "\(rounded(perSecond / 1e6, 2)) M/s" : "\(rounded(perSecond / 1e3, 1)) k/s"
}

func rounded(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let whole = Int((value * scale).rounded())
    let integer = whole / Int(scale), fraction = whole % Int(scale)
    guard digits > 0 else { return "\(integer)" }
    let text = String(fraction)
    return "\(integer)." + String(repeating: "0", count: digits - text.count) + text
}

func column(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

let options = Options(CommandLine.arguments)
var root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
root.removeLast(3)  // Benchmarks/ParserBenchmark/main.swift
let generator = root.joined(separator: "/") + "/scripts/nmea-fixtures"
let gpsdecode = "/usr/bin/gpsdecode"
guard access(gpsdecode, X_OK) == 0 else { fail("\(gpsdecode) is missing: install gpsd-clients (scripts/install-deps)") }

var template = Array("/tmp/locationd-parser-bench-XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else { fail("cannot create a temporary directory") }
let directory = String(cString: made)
let input = directory + "/walk.nmea"
defer {
    unlink(input)
    rmdir(directory)
}

print("Generating a walk of at least \(options.sentences) sentences (scripts/nmea-fixtures --bench)…")
let generated = spawn("/usr/bin/python3", [generator, "--bench", "\(options.sentences)", input], stdin: "/dev/null", stdout: "/dev/null")
guard generated.status == 0 else { fail("the generator failed (exit \(generated.status))") }
var info = stat()
stat(input, &info)

var gpsdBest = Timing(wall: .infinity, cpu: .infinity)
var oursBest = Timing(wall: .infinity, cpu: .infinity)
var statistics = NMEAStatistics()
var fixes = 0
for run in 1...options.runs {
    let result = spawn(gpsdecode, [], stdin: input, stdout: "/dev/null")
    guard result.status == 0 else { fail("gpsdecode failed (exit \(result.status))") }
    gpsdBest = Timing(wall: min(gpsdBest.wall, result.timing.wall), cpu: min(gpsdBest.cpu, result.timing.cpu))
    let ours = parse(input)
    oursBest = Timing(wall: min(oursBest.wall, ours.timing.wall), cpu: min(oursBest.cpu, ours.timing.cpu))
    statistics = ours.statistics
    fixes = ours.fixes
    print("run \(run): gpsdecode \(rounded(result.timing.wall, 3)) s, NMEAParser \(rounded(ours.timing.wall, 3)) s")
}

let sentences = statistics.sentences
guard statistics.badChecksums == 0, statistics.malformed == 0, fixes == statistics.epochs, fixes > 0 else {
    fail("the parser did not read the walk cleanly: \(statistics)")
}
let wallRatio = gpsdBest.wall / oursBest.wall
let cpuRatio = gpsdBest.cpu / oursBest.cpu
print("")
print("input: \(sentences) sentences, \(statistics.epochs) epochs, \(rounded(Double(info.st_size) / 1_048_576, 1)) MiB; best of \(options.runs) runs")
print(column("", 12) + column("wall", 12) + column("CPU", 12) + column("sentences/s (wall)", 20) + "sentences/s (CPU)")
print(column("gpsdecode", 12) + column("\(rounded(gpsdBest.wall, 3)) s", 12) + column("\(rounded(gpsdBest.cpu, 3)) s", 12)
    + column(rate(sentences, gpsdBest.wall), 20) + rate(sentences, gpsdBest.cpu))
print(column("NMEAParser", 12) + column("\(rounded(oursBest.wall, 3)) s", 12) + column("\(rounded(oursBest.cpu, 3)) s", 12)
    + column(rate(sentences, oursBest.wall), 20) + rate(sentences, oursBest.cpu))
print("ratio: \(rounded(wallRatio, 1))× gpsdecode's sentences per second (wall), \(rounded(cpuRatio, 1))× (CPU); target ≥ 4×: "
    + (min(wallRatio, cpuRatio) >= 4 ? "met" : "NOT met"))
