/// What the daemon said when it reconnected to gpsd (docs/sources.md, "Reconnecting"):
/// `gpsd: reconnected to gpsd 3.22 at 127.0.0.1:2947 after 9 attempt(s) in 5.2 s; waits between
/// attempts 0.125 s, 0.25 s, 0.5 s, 0.75 s, … (9 waits, the longest 0.75 s)`. The live test reads
/// the backoff from it rather than timing anything.
struct ReconnectNotice: Sendable, Hashable {
    /// Connection attempts in the outage, the successful one included.
    var attempts: Int
    /// The waits listed (the first eight), in seconds.
    var waits: [Double]
    /// How many waits there were.
    var waitCount: Int
    /// The longest wait, in seconds.
    var longest: Double

    /// Every reconnect notice in `stderr`, in order (lines that do not parse are skipped).
    static func all(in stderr: String) -> [ReconnectNotice] {
        stderr.split(separator: "\n").compactMap { line in
            guard line.contains("gpsd: reconnected to") else { return nil }
            return ReconnectNotice(line)
        }
    }

    init?(_ line: Substring) {
        guard let after = line.firstRange(of: " after ")?.upperBound,
            let attempts = Int(line[after...].prefix { $0.isNumber }),
            let listStart = line.firstRange(of: "waits between attempts ")?.upperBound,
            let open = line[listStart...].lastIndex(of: "(")
        else { return nil }
        self.attempts = attempts
        let listed = line[listStart..<open].split(separator: ",").map { $0.trimmingSpaces }.filter { $0 != "…" }
        waits = listed.compactMap { Double($0.hasSuffix(" s") ? String($0.dropLast(2)) : $0) }
        guard waits.count == listed.count else { return nil }
        let summary = line[line.index(after: open)...]
        guard let count = Int(summary.prefix { $0.isNumber }),
            let longestStart = summary.firstRange(of: "the longest ")?.upperBound,
            let longest = Double(summary[longestStart...].prefix { $0.isNumber || $0 == "." })
        else { return nil }
        waitCount = count
        self.longest = longest
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
