import LocationCodecs
import LocationCore
import LocationValues
import Testing
import TestSupport

@testable import LocationDaemon

/// A gpsd JSON log read whole, its TPVs by the live source's decoder (the
/// replay's `GPSDShimTPVReader`): one fix per receiver epoch by the live
/// assembly, counts that add up, problems listed by line.
@Suite(.timeLimit(.minutes(10))) struct GPSDLogParserTests {
    /// fixtures/receivers/two-receivers.json: gpsd 3.22 reporting good.nmea as /dev/pts/1 and poor.nmea as /dev/pts/2.
    static let twoReceivers = PackagePaths.path("fixtures/receivers/two-receivers.json")

    struct Read {
        var fixes: [Fix] = []
        var statistics: GPSDLogStatistics
        var problems: [GPSDLogParser.Problem]
        var problemCount: Int
    }

    /// A replay's TPV reader; `libgps` false: as on a system without libgps (it is never opened).
    static func reader(libgps: Bool = true) -> GPSDShimTPVReader {
        libgps ? GPSDShimTPVReader() : GPSDShimTPVReader { (session: nil, problem: "libgps.so.28: cannot open shared object file") }
    }

    /// `bytes` through one parser in chunks of `chunk` bytes.
    static func read(_ bytes: [UInt8], device: String? = "log.json", chunk: Int = 1 << 20, libgps: Bool = true) -> Read {
        var parser = GPSDLogParser(device: device)
        let reader = Self.reader(libgps: libgps)
        var fixes: [Fix] = []
        var problems: [GPSDLogParser.Problem] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            bytes[start..<end].withUnsafeBytes { parser.feed($0, readingTPV: reader.read) { fixes.append($0) } }
            problems += parser.takeProblems()
            start = end
        }
        parser.finish(readingTPV: reader.read) { fixes.append($0) }
        problems += parser.takeProblems()
        return Read(fixes: fixes, statistics: parser.statistics, problems: problems, problemCount: parser.problemCount)
    }

    static func read(_ text: String, device: String? = "log.json", libgps: Bool = true) -> Read {
        read(Array(text.utf8), device: device, libgps: libgps)
    }

    @Test func theTwoReceiversLogGivesEachReceiversEpochsOnceNamedByDevice() throws {
        let read = Self.read(try FileIO.read(Self.twoReceivers))
        let s = read.statistics
        #expect(s.addsUp, "\(s)")
        #expect(s.lines == 131 && s.tpv == 64 && s.sky == 0 && s.unreadable == 0 && s.cutOff == 0)
        #expect(s.classes == ["VERSION": 1, "DEVICES": 1, "WATCH": 1, "DEVICE": 4, "GST": 60])
        #expect(s.timeless == 4, "each receiver's first TPVs, before gpsd had the date")
        #expect(s.epochs == 60 && s.usableFixes == 60)
        #expect(
            s.receivers == [
                .init(device: "/dev/pts/1", epochs: 20, usableFixes: 20),
                .init(device: "/dev/pts/2", epochs: 40, usableFixes: 40),
            ])
        let good = read.fixes.filter { $0.device == "/dev/pts/1" }.compactMap(\.time)
        let poor = read.fixes.filter { $0.device == "/dev/pts/2" }.compactMap(\.time)
        #expect(good == (0..<20).map { 1_773_480_600 + Double($0) })
        #expect(poor == (0..<40).map { 1_773_480_600 + Double($0) })
        #expect(read.problems.isEmpty)
    }

    @Test(arguments: [1, 7, 100, 4096])
    func anyChunkingGivesTheSameFixesAndCounts(_ chunk: Int) throws {
        let bytes = try FileIO.read(Self.twoReceivers)
        let whole = Self.read(bytes)
        let chunked = Self.read(bytes, chunk: chunk)
        #expect(chunked.fixes == whole.fixes)
        #expect(chunked.statistics == whole.statistics)
    }

    @Test func aTPVNamingNoDeviceBelongsToTheLogAndOnStandardInputToNoReceiver() {
        let log = """
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2,"eph":5}
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:01.000Z","lat":1,"lon":2,"eph":5}

            """
        #expect(Self.read(log).fixes.map(\.device) == ["log.json", "log.json"])
        let unnamed = Self.read(log, device: nil)
        #expect(unnamed.fixes.map(\.device) == [nil, nil])
        #expect(unnamed.statistics.receivers.map(\.device) == [""])
    }

    @Test func twoReceiversReportingTheSameSecondAreTwoEpochsAndTheSkyCountGoesToItsOwn() {
        let log = """
            {"class":"SKY","device":"/dev/a","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":true}]}
            {"class":"TPV","device":"/dev/a","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2}
            {"class":"TPV","device":"/dev/b","mode":2,"time":"2026-03-14T09:30:00.000Z","lat":1.1,"lon":2}
            {"class":"TPV","device":"/dev/a","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2,"track":90}
            {"class":"DEVICE","path":"/dev/a","activated":0}
            {"class":"TPV","device":"/dev/a","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2}
            {"class":"TPV","device":"/dev/b","mode":2,"time":"2026-03-14T09:30:01.000Z","lat":1.1,"lon":2}

            """
        let read = Self.read(log)
        // gpsd closing /dev/a delivers both receivers' epochs, as live; /dev/a's resent TPV is late.
        #expect(read.fixes.map(\.device) == ["/dev/a", "/dev/b", "/dev/b"])
        #expect(read.fixes[0].course == 90 && read.fixes[0].satellitesUsed == 2)
        #expect(read.fixes[1].mode == .twoD && read.fixes[1].satellitesUsed == nil)
        #expect(read.statistics.late == 1)
        #expect(read.statistics.addsUp)
    }

    static func tpv(_ device: String, _ second: Int, _ extra: String = "", year: Int = 2026) -> String {
        let time = "\(year)-03-14T09:30:\(second < 10 ? "0" : "")\(second).000Z"
        return #"{"class":"TPV","device":"\#(device)","mode":3,"time":"\#(time)","lat":1,"lon":2\#(extra)}"#
    }

    /// A receiver that falls silent without gpsd closing it: its last epoch is delivered once the log clock, moved
    /// by the other receiver, is 2 s past it — not at the end of the log, after everything else.
    @Test func aReceiverGoneSilentHasItsLastEpochDeliveredAsTheOthersReportOn() {
        var lines: [String] = []
        for second in 0..<10 {
            if second < 4 { lines.append(Self.tpv("/dev/a", second)) }
            lines.append(Self.tpv("/dev/b", second))
        }
        let order = Self.read(lines.joined(separator: "\n") + "\n").fixes.map { "\($0.device ?? "") \(Int($0.time ?? 0) % 60)" }
        // /dev/a's 3 s epoch is delivered at /dev/b's 5 s TPV (2 s of log clock later), before /dev/b's 4 s epoch.
        #expect(order.prefix(9) == ["/dev/a 0", "/dev/b 0", "/dev/a 1", "/dev/b 1", "/dev/a 2", "/dev/b 2", "/dev/b 3", "/dev/a 3", "/dev/b 4"])
        #expect(order.count == 14)
    }

    /// Two receivers on one UTC second interleave their TPVs: the other's next second beginning while one's epoch
    /// is still arriving does not cut that epoch short (its RMC TPV is not dropped as late).
    @Test func anotherReceiversNextSecondDoesNotCutAnEpochShort() {
        var lines: [String] = []
        for second in 0..<12 {
            lines.append(Self.tpv("/dev/a", second))
            lines.append(Self.tpv("/dev/a", second, #","track":10"#))
            if second > 0 { lines.append(Self.tpv("/dev/b", second - 1, #","track":20"#)) }
            lines.append(Self.tpv("/dev/b", second))
        }
        lines.append(Self.tpv("/dev/b", 11, #","track":20"#))
        let read = Self.read(lines.joined(separator: "\n") + "\n")
        #expect(read.statistics.late == 0)
        #expect(read.fixes.filter { $0.device == "/dev/b" }.allSatisfy { $0.course == 20 }, "every /dev/b epoch whole")
    }

    /// One epoch dated a year ahead moves the log clock by 1.5 s at most: the other receiver's epoch in progress is
    /// not delivered before its second TPV, and later epochs assemble as before.
    @Test func anEpochDatedAYearAheadDoesNotRunTheLogClockAway() {
        let lines = [
            Self.tpv("/dev/a", 0), Self.tpv("/dev/b", 0),
            Self.tpv("/dev/a", 1, year: 2027), Self.tpv("/dev/b", 0, #","track":20"#),
            Self.tpv("/dev/a", 2), Self.tpv("/dev/b", 1), Self.tpv("/dev/b", 1, #","track":20"#), Self.tpv("/dev/b", 2),
        ]
        let read = Self.read(lines.joined(separator: "\n") + "\n")
        #expect(read.statistics.late == 0)
        #expect(read.fixes.filter { $0.device == "/dev/b" }.map(\.course) == [20, 20, nil])
    }

    /// Line 3, a TPV cut short mid-file, is libgps's to read, as live (the values before the cut: mode and time,
    /// no position); without libgps it is unreadable, with the reason.
    @Test(arguments: [true, false])
    func garbledLinesAreCountedAndListedByLineAndTheReadGoesOn(libgps: Bool) {
        let log = """
            {"class":"VERSION","release":"3.22"}
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2}
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:01.000Z","lat":1,
            $GPGGA,093000.00,3540.87194,N,13946.02401,E,1,09,0.87,34.5,M,18.4,M,,*60
            # a comment
            \u{00}\u{01}binary
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:02.000Z","lat":95,"lon":2}
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:03.000Z","lat":1,"lon":2}
            {"class":"TPV","mode":3,"time":"2026-03-14T09:30:04.000Z","lat":
            """
        let read = Self.read(log, libgps: libgps)
        let s = read.statistics
        let cutShort = libgps ? 0 : 1
        #expect(s.lines == 9 && s.tpv == 4 - cutShort && s.nmea == 1 && s.comments == 1)
        #expect(s.unreadable == 1 + cutShort && s.cutOff == 1)
        #expect(s.outOfRange == 1)
        #expect(s.addsUp, "\(s)")
        #expect(s.epochs == 4 - cutShort && s.usableFixes == 2, "the epoch with latitude 95 is delivered, never usable")
        #expect(read.problems.map(\.line) == (libgps ? [6, 7, 9] : [3, 6, 7, 9]))
        #expect(read.problems.map(\.message)[1 + cutShort] == "TPV \"lat\" is out of range (read; a fix with it is not usable)")
        #expect(read.problems.last?.message == "cut off at the end of the log (no line end): not read")
        if !libgps {
            #expect(read.problems[0].message.hasPrefix("TPV outside the shape gpsd writes, which only libgps reads, and libgps cannot be loaded: "))
        } else {
            let cut = read.fixes.first { $0.time == 1_773_480_601 }
            #expect(cut?.mode == .threeD && cut?.latitude.isNaN == true, "libgps's values before the cut, as live")
        }
    }

    @Test func aWholeLastLineWithoutALineEndIsRead() {
        let read = Self.read(#"{"class":"TPV","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2}"#)
        #expect(read.fixes.count == 1 && read.statistics.cutOff == 0 && read.statistics.lines == 1)
    }

    @Test func anOverLongLineIsUnreadableAndTheNextOneIsRead() {
        let long = #"{"class":"GST","x":""# + String(repeating: "9", count: GPSDLogParser.maximumLineLength) + "\"}\n"
        let tpv = #"{"class":"TPV","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2}"# + "\n"
        for chunk in [64, 1 << 20] {
            let read = Self.read(Array((long + tpv).utf8), chunk: chunk)
            #expect(read.statistics.unreadable == 1 && read.statistics.tpv == 1 && read.fixes.count == 1)
            #expect(read.problems.map(\.message) == ["longer than \(GPSDLogParser.maximumLineLength) bytes"])
        }
    }

    @Test func onlyTheFirstProblemsAreListedAndAllAreCounted() {
        let read = Self.read(String(repeating: "{\"class\":\n", count: 25))
        #expect(read.statistics.unreadable == 25)
        #expect(read.problems.count == GPSDLogParser.problemsListed)
        #expect(read.problemCount == 25)
    }

    @Test func aLogNamingMoreReceiversThanABoardHasStopsAtTheLimitAndCountsTheRest() {
        let log = (0..<40).map {
            #"{"class":"TPV","device":"/dev/r\#($0)","mode":3,"time":"2026-03-14T09:30:00.000Z","lat":1,"lon":2}"#
        }.joined(separator: "\n") + "\n"
        let read = Self.read(log)
        #expect(read.statistics.receivers.count == GPSDLogParser.maximumReceivers)
        #expect(read.statistics.unreadable == 40 - GPSDLogParser.maximumReceivers && read.statistics.addsUp)
        #expect(read.problems.first?.message == "TPV names a receiver past the 32 a log may have")
        #expect(read.fixes.count == GPSDLogParser.maximumReceivers)
    }

    /// The two-receivers log damaged at random — bytes flipped, dropped, doubled, lines cut — read in random
    /// chunks: never a crash, every line counted once, every fix named by a receiver.
    @Test func aLogDamagedAtRandomIsReadWithCountsThatStillAddUp() throws {
        let clean = try FileIO.read(Self.twoReceivers)
        var random = SplitMix64(state: 0x6A73_6F6E)
        for _ in 0..<200 {
            var bytes = clean
            for _ in 0..<(1 + Int(random.next() % 40)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(bytes[at], at: at)
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next() % 200)))
                }
                if bytes.isEmpty { bytes = clean }
            }
            let read = Self.read(bytes, chunk: 1 + Int(random.next() % 5000))
            let s = read.statistics
            #expect(s.addsUp, "\(s)")
            #expect(s.lines == bytes.split(separator: 10, omittingEmptySubsequences: false).count - (bytes.last == 10 ? 1 : 0))
            #expect(s.usableFixes <= s.epochs && s.epochs == read.fixes.count)
            // A TPV naming no device (or an empty one) belongs to the log: no fix is unnamed.
            #expect(read.fixes.allSatisfy { !($0.device ?? "").isEmpty })
            #expect(read.problems.count == min(read.problemCount, GPSDLogParser.problemsListed))
        }
    }

    /// gpsd's regression output (`*.chk`: gpsd's JSON with the NMEA it read between): every TPV is read, the NMEA
    /// lines counted beside, every line once.
    @Test
    func gpsdsRegressionOutputReadsWithCountsThatAddUp() throws {
        let corpus = PackagePaths.gpsdCaptures + "/gpsd-corpus"
        let files = try FileIO.list(corpus).filter { $0.hasSuffix(".chk") }
        #expect(files.count >= 60)
        var tpvs = 0
        var epochs = 0
        for file in files {
            let bytes = try FileIO.read(corpus + "/" + file)
            let read = Self.read(bytes, device: file)
            let s = read.statistics
            #expect(s.addsUp, "\(file): \(s)")
            #expect(s.unreadable == 0 && s.cutOff == 0, "\(file): \(read.problems)")
            let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
            let tpvLines = lines.filter { $0.starts(with: Array(#"{"class":"TPV""#.utf8)) }.count
            #expect(s.tpv == tpvLines, "\(file)")
            #expect(s.epochs <= s.tpv - s.timeless - s.late, "\(file)")
            #expect(read.fixes.allSatisfy { $0.device == file }, "no TPV of the corpus names a device")
            tpvs += s.tpv
            epochs += s.epochs
        }
        #expect(tpvs > 4000, "the corpus holds 4747 TPVs")
        #expect(epochs > 1000)
    }
}
