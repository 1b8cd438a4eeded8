import LocationValues

/// A program connected to one of a client's program sockets, as `status`
/// lists it: who it is (from `SO_PEERCRED`, or for loopback TCP the owner of
/// the peer's socket in `/proc/net/tcp`), how it came, and what it got.
/// Never a coordinate.
public struct ConnectedProgram: Sendable, Hashable {
    /// The client whose socket it connected to.
    public var client: String
    /// `gpsd_socket`, `gpsd_port` or `nmea_socket`: the key of the socket it came through.
    public var via: String
    /// Its process ID, when known.
    public var pid: Int32?
    /// Its user ID, when known.
    public var uid: UInt32?
    /// Its program name (`/proc/PID/comm`), when known.
    public var name: String?
    /// Whether it is watching (receiving fixes) now.
    public var watching: Bool
    /// Fixes sent to it so far.
    public var delivered: Int

    /// A program from its parts.
    public init(client: String, via: String, pid: Int32?, uid: UInt32?, name: String?, watching: Bool, delivered: Int) {
        self.client = client
        self.via = via
        self.pid = pid
        self.uid = uid
        self.name = name
        self.watching = watching
        self.delivered = delivered
    }

    /// `{"client":…,"via":…,"pid":…,"uid":…,"name":…,"watching":…,"delivered":…}`; unknowns left out.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("client", .string(client)), ("via", .string(via))]
        if let pid { members.append(("pid", .number(Double(pid)))) }
        if let uid { members.append(("uid", .number(Double(uid)))) }
        if let name { members.append(("name", .string(name))) }
        members.append(("watching", .bool(watching)))
        members.append(("delivered", .number(Double(delivered))))
        return .object(members)
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "program")
        do throws(FieldReader.FieldError) {
            self.init(
                client: try f.text("client"), via: try f.text("via"), pid: try f.optionalInt("pid").flatMap { Int32(exactly: $0) },
                uid: try f.optionalInt("uid").flatMap { UInt32(exactly: $0) }, name: try f.optionalString("name"),
                watching: try f.bool("watching"), delivered: try f.optionalInt("delivered") ?? 0)
        } catch {
            throw error.decodeError
        }
    }

    /// `gpspipe (pid 4242, uid 1000) on gpsd_port, watching, 12 fixes`.
    public var summary: String {
        var who = name.map(PeerText.escaped) ?? "a program"
        var ids: [String] = []
        if let pid { ids.append("pid \(pid)") }
        if let uid { ids.append("uid \(uid)") }
        if !ids.isEmpty { who += " (\(ids.joined(separator: ", ")))" }
        let fixes = delivered == 1 ? "1 fix" : "\(delivered) fixes"
        return "\(who) on \(via), \(watching ? "watching" : "not watching"), \(fixes)"
    }
}
