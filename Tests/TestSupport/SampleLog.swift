import LocationCore
import LocationProtocol

/// A client's log as the tests of `tail`, `export` and locationctl write it: numbered records
/// of a walk, and bad lines where asked.
public enum SampleLog {
    /// Record number `i`: a second after the one before, a metre north.
    public static func record(_ i: Int) -> LogRecord {
        LogRecord(
            time: 1_773_532_201 + Double(i), latitude: 52.3765432 + Double(i) * 1e-5, longitude: 4.8954321,
            altitude: 3.5, horizontalError: 4.8, verticalError: nil, speed: 1.25, course: 90, mode: .threeD,
            satellites: 9, accuracy: .full, client: "logger")
    }

    /// A log of `count` records with bad lines at the given 1-based line numbers.
    public static func log(records count: Int, badAt bad: Set<Int>) -> [UInt8] {
        var out: [UInt8] = []
        var next = 0
        var line = 1
        while next < count {
            if bad.contains(line) {
                out += Array(#"{"time":"2026-03-14T23:50:01Z","lat":"north"}"#.utf8) + [0x0A]
            } else {
                out += record(next).line()
                next += 1
            }
            line += 1
        }
        return out
    }
}
