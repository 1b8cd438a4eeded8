#if canImport(Glibc)
import Glibc
#endif

/// `RLIMIT_FSIZE` for an exit test's child process (setting it in the test
/// process would limit every test): a write past it fails with `EFBIG`.
enum FileSizeLimit {
    /// Limits files to `bytes`; returns the limit before, or `nil` if it could not be set.
    static func set(_ bytes: rlim_t) -> rlimit? {
        var original = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &original) == 0 else { return nil }
        var limited = original
        limited.rlim_cur = bytes
        guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limited) == 0 else { return nil }
        return original
    }

    /// Puts `original` back; false if it could not.
    static func restore(_ original: rlimit) -> Bool {
        var original = original
        return setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &original) == 0
    }
}
