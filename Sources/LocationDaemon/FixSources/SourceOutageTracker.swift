import LocationCore
import LocationProtocol

/// A stretch of time a source is without its input — gpsd without a confirmed watch, an NMEA
/// device that cannot be opened or went away — as its reader thread counts it: the attempts
/// that failed and the waits between them. Both readers hand `report(at:)` to the daemon as
/// `.outage(SourceOutage)` before each wait, and `.outage(nil)` once the input is back, so
/// `status` says the same thing with the same numbers whichever the source.
struct SourceOutageTracker {
    /// The first waits between attempts that the reconnect notice lists.
    static let listedWaits = 8

    /// When it began (monotonic).
    var since: Double
    /// Attempts made in it, all failed.
    var attempts = 0
    /// The last failure's reason, to tell a changed one from a repeated one.
    var reason: String?
    /// The first `listedWaits` waits between attempts (seconds), then only their count and the longest.
    var waits: [Double] = []
    var waitCount = 0
    var longestWait = 0.0
    var lastWait = 0.0

    mutating func waited(_ seconds: Double) {
        if waits.count < Self.listedWaits { waits.append(seconds) }
        waitCount += 1
        longestWait = max(longestWait, seconds)
        lastWait = seconds
    }

    /// `waits between attempts 0.125 s, 0.25 s, 0.5 s, 0.75 s, … (9 waits, the longest 0.75 s)`.
    var waitsText: String {
        guard waitCount > 0 else { return "no wait between attempts" }
        let listed = waits.map { "\(Self.seconds($0)) s" }.joined(separator: ", ")
        let more = waitCount > waits.count ? ", …" : ""
        return "waits between attempts \(listed)\(more) (\(waitCount) wait\(waitCount == 1 ? "" : "s"), the longest \(Self.seconds(longestWait)) s)"
    }

    /// What `status` says of it at `now` (monotonic).
    func report(at now: Double) -> SourceOutage {
        SourceOutage(
            attempts: attempts, seconds: max(0, now - since), waits: waitCount, longestWait: longestWait,
            lastWait: lastWait)
    }

    /// Seconds to the millisecond, without a trailing `.0`.
    static func seconds(_ value: Double) -> String {
        let ms = (value * 1000).rounded() / 1000
        return ms.rounded() == ms ? "\(Int(ms))" : "\(ms)"
    }
}
