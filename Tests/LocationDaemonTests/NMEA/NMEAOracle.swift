import Foundation
import LocationCodecs
import LocationCore
import LocationValues
import Testing
import TestSupport

/// gpsd's own decoder as the oracle for the NMEA parser: gpsd's TPV reports
/// reduced to one per epoch, compared with the parser's fixes epoch for
/// epoch on time of day, position (1e-7°), mode and eph (1 %).
enum NMEAOracle {
    /// One epoch as seen by gpsd or by the parser.
    struct Epoch: CustomStringConvertible {
        var timeOfDay: String
        var mode: Int
        var latitude: Double?
        var longitude: Double?
        var eph: Double?

        var description: String {
            let position = latitude.map { lat in "\(lat),\(longitude ?? .nan)" } ?? "-"
            return "\(timeOfDay) mode \(mode) \(position) eph \(eph.map { "\($0)" } ?? "-")"
        }
    }

    /// Deliberate disagreements for one file, each with its reason.
    struct Expectations {
        /// Epochs (time of day) the parser emits and gpsd does not report.
        /// (No-fix epochs need no entry: see `noFixRule`.)
        var gpsdSilent: [String: String] = [:]
        /// Epochs whose mode differs from gpsd's.
        var modes: [String: String] = [:]
        /// Epochs whose eph differs from gpsd's.
        var eph: [String: String] = [:]
        /// Set (with the reason) when the parser's epochs before gpsd's first report may go
        /// unreported: gpsd reports nothing until it has learned which sentence ends the cycle.
        /// A rule for the whole file (like `noFixRule`), so not required to happen.
        var silentBeforeFirstReport: String?
    }

    static let gpsdecode = "/usr/bin/gpsdecode"
    static let gpsfake = "/usr/bin/gpsfake"

    /// gpsd 3.22 does not report no-fix cycles reliably, so an epoch the parser
    /// emits with no fix may be missing from gpsd's output.
    static let noFixRule = """
        gpsd 3.22 reports a cycle only when a sentence with a time ends it; an RMC with status V has no \
        time for it, and GGA/RMC without a time give reports without a time, which cannot be matched
        """

    /// gpsd's TPV lines with a time, one per epoch: the last report for each time.
    static func gpsdEpochs(_ output: [UInt8]) -> [Epoch] {
        var epochs: [Epoch] = []
        for line in output.split(separator: UInt8(ascii: "\n")) {
            guard let value = try? JSONValue.parse(line), value["class"]?.stringValue == "TPV",
                  let time = value["time"]?.stringValue, time.count >= 23 else { continue }
            let timeOfDay = String(time.dropFirst(11).prefix(12))
            let epoch = Epoch(
                timeOfDay: timeOfDay, mode: value["mode"]?.intValue ?? 0,
                latitude: value["lat"]?.numberValue, longitude: value["lon"]?.numberValue,
                eph: value["eph"]?.numberValue.flatMap { $0 == 0 ? nil : $0 })  // gpsd's eph 0 for HDOP 0.00: unknown (#29)
            if epochs.last?.timeOfDay == timeOfDay {
                epochs[epochs.count - 1] = epoch
            } else {
                epochs.append(epoch)
            }
        }
        return epochs
    }

    /// The parser's fixes for a whole file.
    static func parserEpochs(_ bytes: [UInt8]) -> [Epoch] {
        var parser = NMEAParser()
        var epochs: [Epoch] = []
        let collect = { (fix: Fix) in
            let text = UTCTime.format(fix.time ?? 0, fractionDigits: 3)
            epochs.append(Epoch(
                timeOfDay: String(text.dropFirst(11).prefix(12)), mode: fix.mode.rawValue,
                latitude: fix.isUsable ? fix.latitude : nil, longitude: fix.isUsable ? fix.longitude : nil,
                eph: fix.horizontalError))
        }
        bytes.withUnsafeBytes { parser.feed($0, collect) }
        parser.finish(collect)
        return epochs
    }

    /// Runs `gpsdecode` on the file at `path` and compares its epochs with the parser's, recording
    /// every disagreement `expectations` does not explain as a test issue.
    static func checkAgainstGpsdecode(
        _ path: String, name: String, expectations: Expectations, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Comparison {
        let bytes = (try? FileIO.read(path)) ?? []
        try #require(!bytes.isEmpty, "cannot read \(path)", sourceLocation: sourceLocation)
        let run = try await ChildProcess.run([gpsdecode], stdin: .file(path))
        try #require(run.status == 0, "gpsdecode failed on \(name): \(run.stderr)", sourceLocation: sourceLocation)
        let comparison = compare(parser: parserEpochs(bytes), gpsd: gpsdEpochs(run.stdout), expectations: expectations)
        #expect(
            comparison.problems.isEmpty, "\(name) vs gpsdecode:\n\(comparison.problems.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return comparison
    }

    /// What matched, and every disagreement not explained by `expectations`.
    struct Comparison {
        var matched = 0
        var matchedWithFix = 0
        var problems: [String] = []
    }

    /// Walks both lists in order, matching epochs by time of day.
    /// `silenceIsOptional`: listed gpsd-silent epochs may be reported after all
    /// (gpsd as a daemon reports the first cycle that gpsdecode does not).
    static func compare(
        parser ours: [Epoch], gpsd theirs: [Epoch], expectations: Expectations, silenceIsOptional: Bool = false
    ) -> Comparison {
        var result = Comparison()
        var usedSilent = Set<String>(), usedModes = Set<String>(), usedEph = Set<String>()
        var next = 0

        func unreported(_ epoch: Epoch, beforeFirstReport: Bool) {
            if epoch.mode <= 1 { return }  // noFixRule
            if beforeFirstReport, expectations.silentBeforeFirstReport != nil {
                return  // a rule for the whole file, like noFixRule
            } else if expectations.gpsdSilent[epoch.timeOfDay] != nil {
                usedSilent.insert(epoch.timeOfDay)
            } else {
                result.problems.append("gpsd does not report the parser's epoch \(epoch)")
            }
        }

        for gpsd in theirs {
            guard let index = ours[next...].firstIndex(where: { $0.timeOfDay == gpsd.timeOfDay }) else {
                result.problems.append("gpsd reports an epoch the parser does not: \(gpsd)")
                continue
            }
            for k in next..<index { unreported(ours[k], beforeFirstReport: result.matched == 0) }
            let mine = ours[index]
            next = index + 1
            result.matched += 1
            let bothFix = mine.mode >= 2 && gpsd.mode >= 2
            let modesAgree = mine.mode == gpsd.mode || (mine.mode <= 1 && gpsd.mode <= 1)
            if !modesAgree {
                if expectations.modes[mine.timeOfDay] != nil {
                    usedModes.insert(mine.timeOfDay)
                } else {
                    result.problems.append("mode differs: parser \(mine), gpsd \(gpsd)")
                }
            }
            guard bothFix else { continue }
            result.matchedWithFix += 1
            if let a = mine.latitude, let b = gpsd.latitude, let c = mine.longitude, let d = gpsd.longitude,
               abs(a - b) <= 1e-7, abs(c - d) <= 1e-7 {
            } else {
                result.problems.append("position differs: parser \(mine), gpsd \(gpsd)")
            }
            switch (mine.eph, gpsd.eph) {
            case (nil, nil):
                break
            case let (a?, b?) where abs(a - b) <= 0.01 * b:
                break
            case (_?, _?) where expectations.eph[mine.timeOfDay] != nil:
                usedEph.insert(mine.timeOfDay)
            case (_?, _?):
                result.problems.append("eph differs: parser \(mine), gpsd \(gpsd)")
            default:
                result.problems.append("eph known to one side only: parser \(mine), gpsd \(gpsd)")
            }
        }
        for k in next..<ours.count { unreported(ours[k], beforeFirstReport: result.matched == 0) }

        // Every listed disagreement must still happen, or the list is stale.
        for (time, _) in expectations.gpsdSilent where !usedSilent.contains(time) && !silenceIsOptional {
            result.problems.append("listed as unreported by gpsd but reported or absent: \(time)")
        }
        for (time, _) in expectations.modes where !usedModes.contains(time) {
            result.problems.append("listed as a mode disagreement but agrees or is absent: \(time)")
        }
        for (time, _) in expectations.eph where !usedEph.contains(time) {
            result.problems.append("listed as an eph disagreement but agrees or is absent: \(time)")
        }

        return result
    }
}
