#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationValues
import LocationSystem
import LocationConfig
import LocationProtocol

extension GeoClueServer.StartError {
    /// Why `cbus_open` could not serve `org.freedesktop.GeoClue2` on the bus at `address` (`nil`:
    /// the system bus), from its result `r` and what the bus said, for the journal: the name taken
    /// and by whom, the bus policy's refusal and where to look, or the failure itself.
    static func notServed(_ r: Int32, _ failure: cbus_open_failure, address: String?) -> Self {
        Self(description: reason(r, failure, address: address))
    }

    private static func reason(_ r: Int32, _ failure: cbus_open_failure, address: String?) -> String {
        let bus = address ?? "the system bus"
        let name = "org.freedesktop.GeoClue2"
        let errorName = Self.text(failure.error_name)
        let errorMessage = Self.text(failure.error_message)
        if r == -EEXIST {
            let owner = Self.text(failure.owner)
            var who = owner.isEmpty ? "another connection" : "the connection \(owner)"
            var facts: [String] = []
            // The process name is a label from /proc, for the person; the pid and uid are the bus's.
            if failure.owner_pid > 0, let command = PeerProcess.processName(failure.owner_pid) { facts.append(PeerText.escaped(command)) }
            if failure.owner_pid > 0 { facts.append("pid \(failure.owner_pid)") }
            if failure.owner_uid != UInt32.max { facts.append("uid \(failure.owner_uid)") }
            if !facts.isEmpty { who += " (\(facts.joined(separator: ", ")))" }
            return "\(name) is taken on \(bus): \(who) owns it, and a name has one owner; stop that service "
                + "(GeoClue itself: systemctl mask --now geoclue) or remove [geoclue] from this configuration"
        }
        if r == -EACCES || errorName == "org.freedesktop.DBus.Error.AccessDenied" {
            let said = errorMessage.isEmpty ? "" : " (\(errorName): \(PeerText.escaped(errorMessage)))"
            let check =
                address == nil
                ? "the policy file /usr/share/dbus-1/system.d/\(name).conf (package locationd-geoclue) lets the user locationd "
                    + "alone own it: run locationd as that user (the packaged unit does) or allow this user there"
                : "check the <policy> of that bus's configuration (its dbus-daemon --config-file) allows own=\"\(name)\" to this user"
            return "the policy of \(bus) does not let uid \(geteuid()) own \(name)\(said); \(check)"
        }
        let stage: String
        switch failure.stage {
        case Int32(CBUS_STAGE_CONNECT.rawValue): stage = "cannot connect to \(bus)"
        case Int32(CBUS_STAGE_NAME.rawValue): stage = "cannot take \(name) on \(bus)"
        default: stage = "cannot serve \(name) on \(bus)"
        }
        let said = errorName.isEmpty ? "" : " (\(errorName): \(PeerText.escaped(errorMessage)))"
        return "\(stage): \(SystemError("sd-bus", errno: -r))\(said)"
    }

    /// A NUL-terminated C array of `cbus_open_failure` as a string.
    private static func text<T>(_ array: T) -> String {
        withUnsafeBytes(of: array) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
