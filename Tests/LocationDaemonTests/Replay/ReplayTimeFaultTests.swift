import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

/// Receiver-time faults spliced into the walk capture (issue #8): whatever the
/// fixes' times do, every usable fix reaches the always-authorized logger, and
/// each jump back is counted once.
@Suite(.timeLimit(.minutes(10))) struct ReplayTimeFaultTests {
    static let walk = PackagePaths.fixture("walk.nmea")

    /// The walk's lines, with `edit` applied to each sentence body (without `$` and checksum) of
    /// epoch `n` (0-based, counted by GGA); checksums are recomputed.
    static func splice(_ edit: (Int, String) -> String) throws -> String {
        var out = ""
        var epoch = -1
        for line in String(decoding: try FileIO.read(walk), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("$"), let star = line.lastIndex(of: "*") else {
                out += line + "\n"
                continue
            }
            let body = String(line[line.index(after: line.startIndex)..<star])
            if body.hasPrefix("GPGGA") { epoch += 1 }
            let edited = edit(epoch, body)
            // `sentence` ends in CR LF (one Character); the capture's lines end in LF.
            out += edited == body ? line + "\n" : String(NMEASourceText.sentence(edited).dropLast()) + "\n"
        }
        return out
    }

    /// Replaces the RMC date field (`140326`) of one epoch.
    static func redate(_ body: String, to date: String) -> String {
        guard body.hasPrefix("GPRMC") else { return body }
        var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[9] = date
        return fields.joined(separator: ",")
    }

    func replay(_ text: String, clients: String = DaemonFixtures.logger) throws -> (ReplaySummary, [LogRecord]) {
        let dir = try ScratchDirectory("replay-fault")
        let input = try dir.write("input.nmea", text)
        let summary = try Replayer.run(Replayer.Options(input: input, config: try daemonConfig(in: dir, clients: clients)))
        return (summary, try logRecords(dir.file("log/logger.jsonl")))
    }

    @Test func oneEpochDatedAYearAheadLogsEveryFix() throws {
        let text = try Self.splice { epoch, body in epoch == 30 ? Self.redate(body, to: "140327") : body }
        #expect(text.contains(",140327,"))
        let (summary, records) = try replay(text)
        #expect(summary.statistics.usableFixes == 360)
        #expect(records.count == 360, "every fix of the walk is logged, the year-ahead one included")
        #expect(summary.clients.first?.delivered == 360)
        let ahead = records.filter { $0.time > UTCTime.seconds(year: 2027, month: 1, day: 1, hour: 0, minute: 0, second: 0) }
        #expect(ahead.count == 1)
    }

    @Test func aSplitReplayCutsWhereTheRecordingsMinutesEndAndAGlitchGetsItsOwnFile() throws {
        let text = try Self.splice { epoch, body in epoch == 30 ? Self.redate(body, to: "140327") : body }
        let (_, whole) = try replay(text)
        let dir = try ScratchDirectory("replay-split")
        let input = try dir.write("input.nmea", text)
        let clients = DaemonFixtures.logger.replacingOccurrences(of: "log = logger.jsonl", with: "log = logger/%Y%m%d-%H%M.jsonl\nsplit = 1 min")
        _ = try Replayer.run(Replayer.Options(input: input, config: try daemonConfig(in: dir, clients: clients)))
        let names = try FileIO.list(dir.file("log/logger"))
        // The walk runs 09:30:00 to 09:35:59 on 2026-03-14: a file per minute, named by the
        // recording's time (not the clock of the replay), and the epoch dated a year ahead in its own.
        #expect(names == ["20260314-0930.jsonl", "20260314-0931.jsonl", "20260314-0932.jsonl", "20260314-0933.jsonl",
                          "20260314-0934.jsonl", "20260314-0935.jsonl", "20270314-0930.jsonl"])
        var split: [LogRecord] = []
        for name in names {
            let records = try logRecords(dir.file("log/logger/" + name))
            let minute = ((records.first?.time ?? 0) / 60).rounded(.down)
            #expect(!records.isEmpty && records.allSatisfy { ($0.time / 60).rounded(.down) == minute }, "\(name) holds its minute only")
            split += records
        }
        #expect(split.count == whole.count, "nothing lost or repeated at the cuts")
        #expect(split.map(\.time).sorted() == whole.map(\.time).sorted())
    }

    @Test func aClockSteppingBackLogsEveryFix() throws {
        // From epoch 100 on, the receiver's clock is 0.302 s behind (telit-he910 style).
        let text = try Self.splice { epoch, body in
            guard epoch >= 100, body.hasPrefix("GPGGA") || body.hasPrefix("GPRMC") || body.hasPrefix("GPGST") else { return body }
            var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // hhmmss.00 − 1 s + 0.698 s = 0.302 s earlier.
            let t = fields[1]
            let seconds = Int(t.prefix(2))! * 3600 + Int(t.dropFirst(2).prefix(2))! * 60 + Int(t.dropFirst(4).prefix(2))! - 1
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            fields[1] = two(seconds / 3600) + two(seconds / 60 % 60) + two(seconds % 60) + ".698"
            return fields.joined(separator: ",")
        }
        let (_, records) = try replay(text)
        #expect(records.count == 360)
    }

    @Test func aLoopedRecordingLogsBothPasses() throws {
        // gpsfake looping its file, or gpsd restarted on the same recording.
        let once = try FileIO.read(Self.walk)
        let (summary, records) = try replay(String(decoding: once + once, as: UTF8.self))
        #expect(summary.statistics.usableFixes == 720)
        #expect(records.count == 720)
        #expect(summary.tally.delivered["logger"] == 720)
    }

    @Test func aReducedClientIsNeitherBlockedNorHurriedByAYearAheadEpoch() throws {
        // The logger and `rough`, a reduced client at most once a minute.
        let clients = ReplayerTests.clients
        let text = try Self.splice { epoch, body in epoch == 30 ? Self.redate(body, to: "140327") : body }
        let dir = try ScratchDirectory("replay-fault")
        let input = try dir.write("input.nmea", text)
        _ = try Replayer.run(Replayer.Options(input: input, config: try daemonConfig(in: dir, clients: clients)))
        // Six minutes at most one a minute. The replay's clock is built from the fix times, so the
        // year-ahead epoch is one forward step of a year (one extra reduced fix, at 09:30:30); the
        // step back after it adds nothing, so the interval is not blocked for a year: 7 in all.
        let rough = try logRecords(dir.file("log/rough.jsonl"))
        #expect(rough.count == 7)
        #expect(rough.last.map { $0.time >= UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 9, minute: 35, second: 0) } == true)
    }
}
