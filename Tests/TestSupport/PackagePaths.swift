#if canImport(Glibc)
import Glibc
#endif

/// Where things are: the package root (from this file's own path), the
/// project's fixtures (its own tracks and gpsd's real captures), and the built
/// executables.
public enum PackagePaths {
    /// The package root: this file is `Tests/TestSupport/PackagePaths.swift`.
    public static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    /// `root/relative`.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The project's own NMEA fixtures (`fixtures/nmea`).
    public static let projectNMEA = path("fixtures/nmea")

    /// One of the project's NMEA fixtures.
    public static func fixture(_ name: String) -> String { projectNMEA + "/" + name }

    /// Real receiver captures from gpsd's regression corpus with gpsd's expected
    /// output (`fixtures/gpsd`, kept in the repository so a clone runs every test).
    public static let gpsdCaptures = path("fixtures/gpsd")

    /// A debug executable that `swift build --build-tests` builds (`.build/debug/NAME`).
    public static func product(_ name: String) -> String { path(".build/debug/" + name) }

    /// Why the executable `name` cannot be run, or `nil` when it can.
    public static func productMissing(_ name: String) -> String? {
        FileIO.isExecutable(product(name)) ? nil : "\(product(name)) is not built: run `swift build --build-tests` first"
    }
}
