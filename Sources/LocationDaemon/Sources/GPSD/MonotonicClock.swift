#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in seconds: for timeouts and backoff, immune to the
/// wall clock being set (which a GPS-disciplined board does often).
enum MonotonicClock {
    /// Seconds since an arbitrary fixed point.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
