#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock: for deadlines and for measuring how long
/// something took, never for dates.
public func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
