import CGPS

/// libgps, opened when the first gpsd source connects rather than linked: a
/// daemon that reads its receiver directly (NMEA) never maps it or the
/// libraries it needs (libdbus, libstdc++). The CGPS shim does the `dlopen`
/// once per process, from whichever reader thread comes first.
enum GPSDLibrary {
    /// The soname opened (`libgps.so.28`, Debian 12's libgps28).
    static var name: String { String(cString: cgps_library_name()) }

    /// Whether it is loaded in this process.
    static var isLoaded: Bool { cgps_library_is_loaded() }

    /// Loads it if it is not yet. A missing library or function is an error
    /// naming the package to install; the source tries again with its backoff.
    static func load(endpoint: String) throws(GPSDError) {
        if cgps_library_is_loaded() { return }
        let (loaded, message) = LoadedLibrary.call { cgps_library_load($0, $1) }
        guard loaded >= 0 else { throw GPSDError(code: .library(message), endpoint: endpoint) }
        if loaded == 1 { Diagnostics.gpsd.info("loaded \(name)") }
    }

    /// What loading `soname` instead would say: `nil` when it would load,
    /// else the message `load` would give. Loads nothing for good.
    static func check(soname: String) -> String? {
        let (checked, message) = LoadedLibrary.call { cgps_library_check(soname, $0, $1) }
        return checked == 0 ? nil : message
    }
}
