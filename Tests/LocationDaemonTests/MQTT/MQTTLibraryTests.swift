import Testing
import TestSupport

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

/// #10: a libmosquitto of another major version has every function the daemon
/// resolves, so only the version check stands between it and a publisher
/// calling functions whose meaning changed. A stand-in built by the test (C
/// compiler: the toolchain needs one anyway) says it is 3.1.4.
@Suite(.timeLimit(.minutes(10)), .enabled(if: ExternalTool.isAvailable("cc"), "needs a C compiler (gcc)"))
struct MQTTLibraryVersionTests {
    static let functions = [
        "mosquitto_lib_init", "mosquitto_new", "mosquitto_destroy", "mosquitto_connect_callback_set",
        "mosquitto_disconnect_callback_set", "mosquitto_publish_callback_set", "mosquitto_username_pw_set",
        "mosquitto_tls_set", "mosquitto_will_set", "mosquitto_connect_async", "mosquitto_disconnect",
        "mosquitto_publish", "mosquitto_loop", "mosquitto_strerror", "mosquitto_connack_string",
    ]

    @Test func anotherMajorVersionIsRefusedWithBothVersions() async throws {
        let scratch = try ScratchDirectory("mqtt-version")
        let source = "int mosquitto_lib_version(int *major, int *minor, int *revision) "
            + "{ *major = 3; *minor = 1; *revision = 4; return 3001004; }\n"
            + Self.functions.map { "int \($0)(void) { return 0; }\n" }.joined()
        let sourcePath = try scratch.write("fake.c", source)
        let library = scratch.path + "/libmosquitto.so.3"
        let compiler = try ChildProcess(
            ["cc", "-shared", "-fPIC", "-o", library, sourcePath], stdoutPath: scratch.path + "/cc.out")
        #expect(try await compiler.finish() == 0, "\(FileIO.text(scratch.path + "/cc.out") ?? "")")
        let message = try #require(MQTTLibrary.check(soname: library))
        #expect(
            message == "MQTT needs \(library) (Debian package libmosquitto1) version 2.x: the one found is 3.1.4",
            "\(message)")
    }
}
