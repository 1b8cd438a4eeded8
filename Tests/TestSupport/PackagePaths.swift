#if canImport(Glibc)
import Glibc
#endif

/// Where things are: the package root (from this file's own path), the
/// project's fixtures, the shared real captures in `../shared` beside the
/// package (absent in a user's clone), and the built executables.
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

    /// `../shared` beside the package.
    public static let shared = root + "/../shared"

    /// The real receiver captures with gpsd's expected output (`../shared/fixtures/nmea`).
    public static let sharedNMEA = shared + "/fixtures/nmea"

    /// Whether the shared captures are present (a clone of the project alone has none).
    public static var hasSharedNMEA: Bool { access(sharedNMEA + "/README.md", R_OK) == 0 }

    /// A debug executable that `swift build --build-tests` builds (`.build/debug/NAME`).
    public static func product(_ name: String) -> String { path(".build/debug/" + name) }

    /// Why the executable `name` cannot be run, or `nil` when it can.
    public static func productMissing(_ name: String) -> String? {
        FileIO.isExecutable(product(name)) ? nil : "\(product(name)) is not built: run `swift build --build-tests` first"
    }
}
