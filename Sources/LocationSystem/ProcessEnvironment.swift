#if canImport(Glibc)
import Glibc
#endif

/// The few environment variables the programs read, taken once into a
/// dictionary, so that the parsers and the configuration reader stay pure
/// functions of what they are handed (and tests hand in their own).
public enum ProcessEnvironment {
    /// The values of those of `names` that are set.
    public static func values(of names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
