#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// Fault suite (scripts/faults): real and project NMEA captures, mutated
/// (bytes flipped, fields dropped, doubled or set to extremes, hemispheres
/// changed, lines cut or made huge, garbage inserted — most mutated
/// sentences with a checksum made to match, so the parser sees them), through
/// `locationd replay`: no crash, no hang, and no logged value out of range.
@Suite(.timeLimit(.minutes(30)), .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"))
struct NMEAMutationFaults {
    /// The captures: the project's fixtures, and the real receiver captures of fixtures/gpsd.
    static func captures() throws -> [String] {
        var paths = try FileIO.list(PackagePaths.projectNMEA).filter { $0.hasSuffix(".nmea") }.sorted().map(PackagePaths.fixture)
        paths += try FileIO.list(PackagePaths.gpsdCaptures).filter { $0.hasSuffix(".log") }.sorted().map { PackagePaths.gpsdCaptures + "/" + $0 }
        return paths
    }

    static let extremes = [
        "", "-0", "9999999999.99999", "1e308", "nan", "inf", "-180.5", "99", "000000.00", "235960.99", "999999", "-1", "0.0000000001",
        "18000.0000", "9000.00001", "+12", ".", "00", "361.0",
    ]

    /// `line` with its `*hh` checksum set to match its body.
    static func withChecksum(_ line: [UInt8]) -> [UInt8] {
        guard let dollar = line.firstIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }) else { return line }
        let star = line[dollar...].firstIndex(of: UInt8(ascii: "*")) ?? line.endIndex
        let sum = line[(dollar + 1)..<star].reduce(UInt8(0), ^)
        let hex = Array("0123456789ABCDEF".utf8)
        return Array(line[..<star]) + [UInt8(ascii: "*"), hex[Int(sum >> 4)], hex[Int(sum & 15)]]
    }

    /// One mutation of one sentence.
    static func mutate(_ line: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        guard !line.isEmpty else { return line }
        var fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init)
        let pick = Int(random.next() % UInt64(fields.count))
        var fixSum = random.next() % 4 != 0
        switch random.next() % 8 {
        case 0:
            var bytes = line
            bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            fixSum = false
            return bytes
        case 1:
            if fields.count > 1 { fields.remove(at: max(pick, 1)) }
        case 2:
            let extreme = extremes[Int(random.next() % UInt64(extremes.count))]
            fields[max(pick, 1) % fields.count] = Array(extreme.utf8)
        case 3:
            return Array(line.prefix(Int(random.next() % UInt64(line.count))))
        case 4:
            fields.insert(fields[pick], at: pick)
        case 5:
            let garbage = (0..<Int(1 + random.next() % 30)).map { _ in UInt8(truncatingIfNeeded: random.next()) }.filter { $0 != 0x0A }
            let at = Int(random.next() % UInt64(line.count))
            return Array(line[..<at]) + garbage + Array(line[at...])
        case 6:
            fields += Array(repeating: fields[pick], count: 200 + Int(random.next() % 2000))
        default:
            let letters = [UInt8(ascii: "N"), UInt8(ascii: "S"), UInt8(ascii: "E"), UInt8(ascii: "W")]
            for index in fields.indices where fields[index].count == 1 && letters.contains(fields[index][0]) {
                fields[index] = [random.next() % 3 == 0 ? UInt8(ascii: "X") : letters[Int(random.next() % 4)]]
            }
        }
        let joined = Array(fields.joined(separator: [UInt8(ascii: ",")]))
        return fixSum ? withChecksum(joined) : joined
    }

    /// The capture's first 600 lines, a quarter of its sentences mutated.
    static func mutant(of capture: [UInt8], seed: UInt64) -> [UInt8] {
        var random = SplitMix64(state: seed)
        var out: [UInt8] = []
        for line in capture.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(600) {
            var bytes = Array(line)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            if bytes.first != UInt8(ascii: "#") && random.next() % 4 == 0 { bytes = mutate(bytes, &random) }
            out += bytes + Array("\r\n".utf8)
        }
        return out
    }

    /// Why a logged record is out of range, or `nil`.
    static func outOfRange(_ record: LogRecord) -> String? {
        let finite = [record.latitude, record.longitude, record.time].allSatisfy(\.isFinite)
            && [record.altitude, record.horizontalError, record.verticalError, record.speed, record.course].allSatisfy { $0?.isFinite ?? true }
        guard finite else { return "a value that is not finite" }
        if !(-90...90).contains(record.latitude) { return "latitude \(record.latitude)" }
        if !(-180...180).contains(record.longitude) { return "longitude \(record.longitude)" }
        if let h = record.horizontalError, h < 0 { return "hAcc \(h)" }
        if let v = record.verticalError, v < 0 { return "vAcc \(v)" }
        if let speed = record.speed, speed < 0 { return "speed \(speed)" }
        if let course = record.course, !(0..<360).contains(course) { return "course \(course)" }
        if let sats = record.satellites, !(0...255).contains(sats) { return "sats \(sats)" }
        // 1980-01-06 (GPS time's start) to 2100.
        if !(315_964_800...4_102_444_800).contains(record.time) { return "time \(record.time)" }
        return nil
    }

    @Test func mutatedCapturesThroughReplayNeverCrashHangOrLogAValueOutOfRange() async throws {
        let sandbox = try DaemonSandbox("mutants")
        try sandbox.writeConfig(port: 2947, clients: DaemonSandbox.logger(filter: "none", accuracy: "best"))
        let captures = try Self.captures()
        let count = FaultReport.size("LOCATIOND_FAULTS_MUTANTS", default: 120)
        var crashes: [String] = []
        var hangs: [String] = []
        var outOfRange: [String] = []
        var records = 0
        var sentences = 0
        for index in 0..<count {
            let capture = captures[index % captures.count]
            let bytes = Self.mutant(of: try FileIO.read(capture), seed: 0x4E4D_4541 &+ UInt64(index))
            sentences += bytes.count { $0 == 0x0A }
            let file = sandbox.file("mutant-\(index).nmea")
            try FileIO.write(file, bytes)
            let out = sandbox.file("out-\(index)")
            let name = "\(FileSystem.fileName(of: capture)) #\(index)"
            do {
                let run = try await ChildProcess.run(
                    [PackagePaths.product("locationd"), "replay", file, "--config", sandbox.configPath, "--log-dir", out],
                    environment: .only([:]), timeout: 60)
                if let signal = run.exit.signal {
                    crashes.append("\(name): signal \(signal): \(run.stderr.suffix(300))")
                    continue
                }
                #expect(run.status == 0, "\(name): \(run.stderr)")
            } catch {
                hangs.append("\(name): \(error)")
                continue
            }
            let (logged, problems) = LogFileRecords.read(out + "/logger.jsonl")
            #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
            records += logged.count
            for record in logged {
                if let why = Self.outOfRange(record) { outOfRange.append("\(name): \(why) in \(record.text)") }
            }
            // Kept only when something went wrong, for a person to replay.
            if crashes.isEmpty && hangs.isEmpty && outOfRange.isEmpty {
                unlink(file)
                FileIO.removeTree(out)
            }
        }
        #expect(crashes.isEmpty, "\(crashes.prefix(3))")
        #expect(hangs.isEmpty, "\(hangs.prefix(3))")
        #expect(outOfRange.isEmpty, "\(outOfRange.prefix(5))")
        #expect(records > 0, "some mutants still carry fixes")
        FaultReport.figure(
            "mutated-nmea",
            "\(count) mutants of \(captures.count) captures (\(sentences) lines) through replay: \(crashes.count) crashes, "
                + "\(hangs.count) hangs, \(outOfRange.count) out-of-range values in \(records) logged records")
    }
}
