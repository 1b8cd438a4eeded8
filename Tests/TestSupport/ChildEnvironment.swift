#if canImport(Glibc)
import Glibc
#endif

/// The environment a child process gets.
public struct ChildEnvironment: Sendable {
    /// Every variable, by name.
    public var variables: [String: String]

    /// This process's environment with `overrides` set: what a shell would pass.
    public static func inherited(_ overrides: [String: String] = [:]) -> ChildEnvironment {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return ChildEnvironment(variables: variables.merging(overrides) { $1 })
    }

    /// Exactly `variables`, plus `PATH`, `HOME` and `TMPDIR` from this process
    /// unless given: nothing of the test runner's (a `NOTIFY_SOCKET`, say) leaks in.
    public static func only(_ variables: [String: String]) -> ChildEnvironment {
        var all = variables
        for name in ["PATH", "HOME", "TMPDIR"] where all[name] == nil {
            if let value = getenv(name) { all[name] = String(cString: value) }
        }
        return ChildEnvironment(variables: all)
    }

    /// `NAME=value` strings, sorted.
    var entries: [String] {
        variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}
