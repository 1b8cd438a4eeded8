import CBus
import CSupport
import Testing

@testable import LocationDaemon

/// #37: the shared loader of the libraries the daemon opens on first use
/// (CSupport's csupport_library.h: libmosquitto, libgps, libsystemd), and
/// libsystemd's own load (CBus), whose library `GPSDLibraryTests` and
/// `MQTTLibraryTests` do not cover.
@Suite(.timeLimit(.minutes(10)))
struct LibrariesOnFirstUseTests {
    /// The message every failure starts with: the feature, the soname, the package, then the loader's words.
    @Test func aMissingLibrarysMessageNamesTheFeatureAndThePackage() {
        func text(_ string: StaticString) -> UnsafePointer<CChar> {
            UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
        }
        var names: [UnsafePointer<CChar>?] = [text("sd_bus_new")]
        var symbols: [UnsafeMutableRawPointer?] = [nil]
        let (result, message) = names.withUnsafeMutableBufferPointer { list in
            var library = csupport_library(
                soname: text("libabsent-test.so.1"), package: text("libabsent1"), feature: text("a test"),
                names: UnsafePointer(list.baseAddress), count: 1)
            return LoadedLibrary.call { buffer, capacity in
                csupport_library_open(&library, nil, &symbols, buffer, capacity) == nil ? -1 : 0
            }
        }
        #expect(result == -1)
        #expect(message.hasPrefix("a test needs libabsent-test.so.1 (Debian package libabsent1): "), "\(message)")
        #expect(message.contains("cannot open shared object file"), "\(message)")
    }

    /// libsystemd0 is on every Debian machine (apt needs it); loading it twice is the first load's result.
    @Test func libsystemdLoadsOnceForTheGeoClueFace() {
        let first = LoadedLibrary.call { cbus_library_load($0, $1) }
        #expect(first.result >= 0, "\(first.message)")
        let second = LoadedLibrary.call { cbus_library_load($0, $1) }
        #expect(second.result == 0, "\(second.message)")
    }
}
