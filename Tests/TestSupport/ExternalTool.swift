#if canImport(Glibc)
import Glibc
#endif

/// The programs from Debian packages that tests drive (gpsfake, mosquitto,
/// gpspipe, rsvg-convert, lintian…), and whether a missing one is a skip or
/// a failure.
///
/// A developer's machine may lack a tool: the test is skipped with a message
/// naming the package. CI installs every package in `scripts/packages.txt`
/// and sets `LOCATIOND_REQUIRE_TOOLS=1` (in `.ci/run`): there a missing tool
/// must fail the test, never skip it, so `isAvailable` answers `true` and
/// the test runs and fails where it starts the tool.
public enum ExternalTool {
    /// Whether CI asked that a missing tool fail the tests rather than skip them.
    public static let required: Bool = {
        guard let value = getenv("LOCATIOND_REQUIRE_TOOLS") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// The directories searched for a tool, in order.
    public static let searchPath = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    /// The full path of `name` (a bare program name, or an absolute path), or `nil`.
    public static func path(_ name: String) -> String? {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in searchPath where access(directory + "/" + name, X_OK) == 0 {
            return directory + "/" + name
        }
        return nil
    }

    /// For `.enabled(if:)`: every tool in `names` is installed, or CI requires
    /// tools (then the test runs, and fails where a tool is missing).
    public static func isAvailable(_ names: String...) -> Bool {
        required || names.allSatisfy { path($0) != nil }
    }

    /// For `.enabled(if:)` where a condition other than a path decides
    /// (a Python module, a readable file): `present`, or CI requires tools.
    public static func isAvailable(when present: Bool) -> Bool {
        required || present
    }
}
