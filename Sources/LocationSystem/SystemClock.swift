#if canImport(Glibc)
import Glibc
#endif

/// The system's two clocks in seconds, read the same way everywhere:
/// monotonic time for timeouts, deadlines, intervals and the engine's `now`
/// (it never jumps when the wall clock is set, which a GPS-disciplined board
/// does often), and UTC for stamping records and naming files.
public enum SystemClock {
    /// Seconds since an arbitrary fixed point (`CLOCK_MONOTONIC`).
    public static func monotonic() -> Double {
        read(CLOCK_MONOTONIC)
    }

    /// UTC seconds since 1970 (`CLOCK_REALTIME`).
    public static func utc() -> Double {
        read(CLOCK_REALTIME)
    }

    private static func read(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
