import CMQTT
import LocationCore

/// libmosquitto, opened when the first publisher makes a connection rather
/// than linked: a daemon without `mqtt_broker` clients never maps it or the
/// TLS libraries it needs (libssl, libcrypto). The CMQTT shim does the
/// `dlopen` once per process, from whichever publisher thread comes first.
enum MQTTLibrary {
    /// The soname opened (Debian's libmosquitto1).
    static var name: String { String(cString: cmqtt_library_name()) }

    /// Whether it is loaded in this process.
    static var isLoaded: Bool { cmqtt_library_is_loaded() }

    /// Loads it if it is not yet. A missing library, a missing function or
    /// another major version is a `misconfigured` failure saying which
    /// package to install; the publisher tries again with its backoff.
    static func load() throws(MQTTFailure) {
        if cmqtt_library_is_loaded() { return }
        let (loaded, message) = LoadedLibrary.call { cmqtt_library_load($0, $1) }
        guard loaded >= 0 else { throw MQTTFailure(state: .misconfigured, detail: message) }
        if loaded == 1 { Diagnostics.mqtt.info("loaded \(name), libmosquitto \(version ?? "?")") }
    }

    /// The loaded library's version (`2.0.11`), `nil` before it is loaded.
    static var version: String? {
        let packed = cmqtt_library_version()
        guard packed > 0 else { return nil }
        return "\(packed / 1_000_000).\(packed / 1000 % 1000).\(packed % 1000)"
    }

    /// What loading `soname` instead would say: `nil` when it would load,
    /// else the message `load()` would give. Loads nothing for good.
    static func check(soname: String) -> String? {
        let (checked, message) = LoadedLibrary.call { cmqtt_library_check(soname, $0, $1) }
        return checked == 0 ? nil : message
    }
}
