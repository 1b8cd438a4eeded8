#if canImport(Glibc)
import Glibc
#endif

/// The fault and attack suite's output (`scripts/faults`, issue #9): each
/// case prints one figure line, `faults: CASE FIGURES`, on stdout, and also
/// appends it to the file `LOCATIOND_FAULTS_REPORT` names, so `scripts/test`
/// and `scripts/faults` can print every case's line together at the end.
/// The cases' sizes (kills, requests, files) are parameters read from the
/// environment: CI runs the defaults, a longer run sets them larger.
public enum FaultReport {
    /// Prints `faults: CASE FIGURES` and appends it to the report file, if one is named.
    public static func figure(_ name: String, _ figures: String) {
        let line = "faults: \(name) \(figures)\n"
        let bytes = Array(line.utf8)
        // write(2) on descriptor 1 itself: whole, and not held in a buffer of the test runner's.
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        guard let path = getenv("LOCATIOND_FAULTS_REPORT").map({ String(cString: $0) }), !path.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        // One write(2) of a short line with O_APPEND: cases running at once do not interleave.
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The whole number in the environment variable `name` (e.g. `LOCATIOND_FAULTS_KILLS`),
    /// or `fallback` when it is unset, empty or not a positive number.
    public static func size(_ name: String, default fallback: Int) -> Int {
        guard let value = getenv(name).flatMap({ Int(String(cString: $0)) }), value > 0 else { return fallback }
        return value
    }

    /// Milliseconds with one decimal, for latency figures.
    public static func milliseconds(_ seconds: Double) -> String {
        let tenths = (seconds * 10_000).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) ms"
    }

    /// The `q` quantile (0…1) of `values` by the nearest rank; 0 when empty.
    public static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
