import LocationCore
import LocationProtocol
import LocationValues

/// What one kind of program socket speaks: gpsd's JSON protocol (`GPSDWire`, on
/// `gpsd_socket` and `gpsd_port`) or NMEA sentences (`NMEAWire`, on
/// `nmea_socket`), one type per protocol, as `ProgramEndpoint.wire` picks it.
/// A wire only turns things into bytes and request lines into answers;
/// `ProgramConversation` keeps who is admitted, the clients' use and the counts.
protocol ProgramWire: Sendable {
    /// What a program hears on connecting; `nil`: nothing, and its stream starts at once.
    var greeting: [UInt8]? { get }
    /// A sentence for the program (a refusal, `busy`, a cut-off, the daemon stopping), or `nil`
    /// when the protocol has no way to say one (the journal says it instead).
    func error(_ sentence: String) -> [UInt8]?
    /// One fix for a program; `newReceiver`, when the fix's receiver is new to its client, the
    /// notice of it (`ProgramConversation` keeps the receivers).
    func fix(_ record: LogRecord, newReceiver: [UInt8]?) -> [UInt8]
    /// A receiver's sky view for a program of `client`, or `nil` when the protocol has none.
    func sky(_ view: SkyView, client: String) -> [UInt8]?
    /// The answer to one request line of a program that `program` describes.
    func answer(_ line: ServerConnection.Line, _ program: ProgramWireView) -> ProgramWireAnswer
}

/// What a wire may read of a program to answer it.
struct ProgramWireView {
    /// The client whose socket it came to.
    var client: String
    /// Whether it watches now.
    var watching: Bool
    /// The last fix and sky view it got under its client's current grant.
    var last: LogRecord?
    var sky: SkyView?
    /// The receivers its client's sockets have served fixes from, and when the sockets opened.
    var receivers: [GPSDReply.Device]
    var started: Double
    /// The time now (UTC seconds).
    var time: Double
}

/// A wire's answer to a request line.
struct ProgramWireAnswer {
    /// What the program is told, in order.
    var reply: [UInt8] = []
    /// Whether it should watch from now on (`nil`: as it does).
    var watch: Bool?
    /// Whether the line was malformed or too long (counted by the loop).
    var malformed = false
}
