import CSystemd
import Glibc
import TestSupport

/// A GeoClue client of the benchmark's own, on sd-bus: asks for a client as
/// where-am-i does (`GetClient`, `DesktopId`, `RequestedAccuracyLevel` EXACT,
/// `Start`), then notes the monotonic time each `LocationUpdated` reaches it
/// (the moment poll(2) says its socket is readable) and reads that
/// Location's `Timestamp`, the fix's own time, to match it with gpsd's TPV.
/// Only sd-bus's non-variadic calls: Swift does not import the others.
final class BusProbe {
    /// A signal: when it arrived and the fix's time (seconds since 1970, to the microsecond).
    struct Arrival {
        var at: Double
        var fixTime: Double
    }

    private var bus: OpaquePointer?
    private let service = "org.freedesktop.GeoClue2"
    /// The client object, once `start` has it.
    private(set) var client = ""
    /// What arrived, in order.
    private(set) var arrivals: [Arrival] = []
    /// Signals read off sd-bus's queue rather than the socket (they came in
    /// while the probe was reading a Location): counted, not timed.
    private(set) var queued = 0

    /// Connects to the bus at `address` (`unix:path=…`) and says Hello.
    init(address: String) throws(ProbeError) {
        try check(sd_bus_new(&bus), "sd_bus_new")
        try check(sd_bus_set_address(bus, address), "sd_bus_set_address \(address)")
        try check(sd_bus_set_bus_client(bus, 1), "sd_bus_set_bus_client")
        try check(sd_bus_start(bus), "connecting to \(address)")
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    /// GetClient, DesktopId = `desktopId`, RequestedAccuracyLevel = EXACT, Start.
    func start(desktopId: String) throws(ProbeError) {
        let reply = try call("/org/freedesktop/GeoClue2/Manager", "org.freedesktop.GeoClue2.Manager", "GetClient") { _ in 0 }
        defer { sd_bus_message_unref(reply) }
        var path: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(reply, type("o"), &path), "reading GetClient's reply")
        client = String(cString: path!)
        try setProperty("DesktopId", "s") { message in
            desktopId.withCString { sd_bus_message_append_basic(message, type("s"), $0) }
        }
        try setProperty("RequestedAccuracyLevel", "u") { message in
            var exact: UInt32 = 8
            return sd_bus_message_append_basic(message, type("u"), &exact)
        }
        sd_bus_message_unref(try call(client, "org.freedesktop.GeoClue2.Client", "Start") { _ in 0 })
    }

    /// Reads signals for `seconds`, or until `enough` have been timed.
    func pump(for seconds: Double, until enough: Int) throws(ProbeError) {
        let deadline = monotonicNow() + seconds
        var wokeAt: Double?
        var updated: [(at: Double?, location: String)] = []
        while arrivals.count < enough {
            var message: OpaquePointer?
            let processed = sd_bus_process(bus, &message)
            try check(processed, "sd_bus_process")
            if let message {
                defer { sd_bus_message_unref(message) }
                if sd_bus_message_is_signal(message, "org.freedesktop.GeoClue2.Client", "LocationUpdated") > 0 {
                    var old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
                    try check(sd_bus_message_read_basic(message, type("o"), &old), "reading LocationUpdated")
                    try check(sd_bus_message_read_basic(message, type("o"), &new), "reading LocationUpdated")
                    updated.append((wokeAt, String(cString: new!)))
                }
            }
            if processed > 0 { continue }
            // Nothing more queued: read the new Locations' times (the next
            // signal, 100 ms away, arrives to an idle probe), then wait.
            for (at, location) in updated {
                guard let at else {
                    queued += 1
                    continue
                }
                arrivals.append(Arrival(at: at, fixTime: try fixTime(location)))
            }
            updated.removeAll()
            wokeAt = nil
            let left = deadline - monotonicNow()
            if left <= 0 { break }
            var descriptor = pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
            if ready > 0 { wokeAt = monotonicNow() }
        }
    }

    /// A Location's `Timestamp (tt)`, as seconds since 1970.
    private func fixTime(_ location: String) throws(ProbeError) -> Double {
        let reply = try call(location, "org.freedesktop.DBus.Properties", "Get") { message in
            var status = "org.freedesktop.GeoClue2.Location".withCString { sd_bus_message_append_basic(message, type("s"), $0) }
            if status >= 0 { status = "Timestamp".withCString { sd_bus_message_append_basic(message, type("s"), $0) } }
            return status
        }
        defer { sd_bus_message_unref(reply) }
        var seconds: UInt64 = 0, microseconds: UInt64 = 0
        try check(sd_bus_message_enter_container(reply, type("v"), "(tt)"), "reading Timestamp")
        try check(sd_bus_message_enter_container(reply, type("r"), "tt"), "reading Timestamp")
        try check(sd_bus_message_read_basic(reply, type("t"), &seconds), "reading Timestamp")
        try check(sd_bus_message_read_basic(reply, type("t"), &microseconds), "reading Timestamp")
        return Double(seconds) + Double(microseconds) / 1e6
    }

    /// Properties.Set on the client: `append` writes the value inside the variant of `signature`.
    private func setProperty(_ name: String, _ signature: String, _ append: (OpaquePointer?) -> Int32) throws(ProbeError) {
        let reply = try call(client, "org.freedesktop.DBus.Properties", "Set") { message in
            var status = "org.freedesktop.GeoClue2.Client".withCString { sd_bus_message_append_basic(message, type("s"), $0) }
            if status >= 0 { status = name.withCString { sd_bus_message_append_basic(message, type("s"), $0) } }
            if status >= 0 { status = sd_bus_message_open_container(message, type("v"), signature) }
            if status >= 0 { status = append(message) }
            if status >= 0 { status = sd_bus_message_close_container(message) }
            return status
        }
        sd_bus_message_unref(reply)
    }

    /// A method call to GeoClue, its arguments written by `arguments`; the reply (unref it).
    private func call(
        _ path: String, _ interface: String, _ member: String, _ arguments: (OpaquePointer?) -> Int32
    ) throws(ProbeError) -> OpaquePointer? {
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, service, path, interface, member), "\(member): new message")
        defer { sd_bus_message_unref(message) }
        try check(arguments(message), "\(member): arguments")
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let status = sd_bus_call(bus, message, 60_000_000, &error, &reply)
        guard status >= 0 else {
            let said = error.message.map { String(cString: $0) } ?? String(cString: strerror(-status))
            throw ProbeError(description: "\(interface).\(member) on \(path): \(said)")
        }
        return reply
    }

    private func check(_ status: Int32, _ what: String) throws(ProbeError) {
        guard status >= 0 else { throw ProbeError(description: "\(what): \(String(cString: strerror(-status)))") }
    }

    private func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }
}

struct ProbeError: Error, CustomStringConvertible {
    var description: String
}
