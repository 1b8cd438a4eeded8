import Testing

@testable import LocationDaemon

/// #10: libmosquitto is opened on demand (dlopen), so a missing or wrong
/// library must be a clear message, not a crash. `check(soname:)` runs the
/// same open–resolve–version steps as the daemon's load, on a name of the
/// test's choosing, and closes what it opened.
struct MQTTLibraryTests {
    @Test func theShippedNameIsDebiansLibmosquitto1() {
        #expect(MQTTLibrary.name == "libmosquitto.so.1")
    }

    @Test func aMissingLibraryNamesThePackageAndTheLoadersReason() throws {
        let message = try #require(MQTTLibrary.check(soname: "libmosquitto-absent.so.9"))
        #expect(message.hasPrefix("MQTT needs libmosquitto-absent.so.9 (Debian package libmosquitto1): "), "\(message)")
        #expect(message.contains("cannot open shared object file"), "dlerror's words: \(message)")
    }

    @Test func aLibraryWithoutLibmosquittosFunctionsIsRefused() throws {
        // libm is there on every Linux machine and has none of them.
        let message = try #require(MQTTLibrary.check(soname: "libm.so.6"))
        #expect(message.hasPrefix("MQTT needs libm.so.6 (Debian package libmosquitto1): "), "\(message)")
        #expect(message.contains("undefined symbol: mosquitto_"), "\(message)")
    }

    /// libmosquitto1 is here wherever this builds: libmosquitto-dev, which gives the header, depends on it.
    @Test func theInstalledLibraryLoadsAndIsVersion2() throws {
        #expect(MQTTLibrary.check(soname: MQTTLibrary.name) == nil)
        try MQTTLibrary.load()
        #expect(MQTTLibrary.isLoaded)
        let version = try #require(MQTTLibrary.version)
        #expect(version.hasPrefix("2."), "\(version)")
        // A second load is the first one's result: nothing opened again.
        try MQTTLibrary.load()
        #expect(MQTTLibrary.version == version)
    }
}
