import LocationCore
import LocationProtocol
import LocationValues

/// NMEA sentences on a client's `nmea_socket` (docs/protocol.md, "Programs"): the stream
/// starts when the program connects, each fix as `NMEAEncoder` writes it; what the program
/// sends is ignored; nothing is said to it but fixes (refusals and cut-offs go to the journal).
struct NMEAWire: ProgramWire {
    var greeting: [UInt8]? { nil }

    func error(_ sentence: String) -> [UInt8]? { nil }

    func fix(_ record: LogRecord, newReceiver: [UInt8]?) -> [UInt8] {
        NMEAEncoder.sentences(record)
    }

    func sky(_ view: SkyView, client: String) -> [UInt8]? { nil }

    func answer(_ line: ServerConnection.Line, _ program: ProgramWireView) -> ProgramWireAnswer {
        ProgramWireAnswer()
    }
}
