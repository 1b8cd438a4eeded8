import Testing

@testable import LocationDaemon

/// #37: libgps is opened when a gpsd source first connects (dlopen), not
/// linked, so a missing or wrong library must be an error that names the
/// package, never a crash. `check(soname:)` runs the same open and resolve
/// steps as the source's load, on a name of the test's choosing, and closes
/// what it opened (as `MQTTLibraryTests` does for libmosquitto).
@Suite(.timeLimit(.minutes(10)))
struct GPSDLibraryTests {
    @Test func theShippedNameIsDebian12sLibgps28() {
        #expect(GPSDLibrary.name == "libgps.so.28")
    }

    @Test func aMissingLibraryNamesThePackageAndTheLoadersReason() throws {
        let message = try #require(GPSDLibrary.check(soname: "libgps-absent.so.9"))
        #expect(
            message.hasPrefix("a gpsd source needs libgps-absent.so.9 (Debian package libgps28): "), "\(message)")
        #expect(message.contains("cannot open shared object file"), "dlerror's words: \(message)")
    }

    @Test func aLibraryWithoutLibgpssFunctionsIsRefused() throws {
        // libm is there on every Linux machine and has none of them.
        let message = try #require(GPSDLibrary.check(soname: "libm.so.6"))
        #expect(message.hasPrefix("a gpsd source needs libm.so.6 (Debian package libgps28): "), "\(message)")
        #expect(message.contains("undefined symbol: gps_"), "\(message)")
    }

    /// What the source says when the library cannot be loaded: the endpoint
    /// it was connecting to, and the loader's message naming the package.
    @Test func theSourcesErrorCarriesTheMessage() throws {
        let message = try #require(GPSDLibrary.check(soname: "libgps-absent.so.9"))
        let error = GPSDError(code: .library(message), endpoint: "127.0.0.1:2947")
        #expect(error.description == "cannot connect to gpsd at 127.0.0.1:2947: \(message)")
    }

    /// libgps28 is here wherever this builds: libgps-dev, which gives the header, depends on it.
    @Test func theInstalledLibraryLoadsAndSaysItsRelease() throws {
        #expect(GPSDLibrary.check(soname: GPSDLibrary.name) == nil)
        try GPSDLibrary.load(endpoint: "test")
        #expect(GPSDLibrary.isLoaded)
        // A second load is the first one's result.
        try GPSDLibrary.load(endpoint: "test")
        #expect(GPSDWire.gpsdRelease.hasPrefix("3."), "\(GPSDWire.gpsdRelease)")
    }
}
