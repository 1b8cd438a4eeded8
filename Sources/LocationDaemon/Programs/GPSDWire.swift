import CGPS
import LocationCore
import LocationProtocol
import LocationValues

/// gpsd's JSON protocol on a client's `gpsd_socket` and `gpsd_port` (docs/protocol.md,
/// "Programs"): `VERSION` on connect (`release`: the installed gpsd's, `gpsdRelease`); `?WATCH={"enable":true}` answered with `DEVICES` and
/// `WATCH`, then a `TPV` per fix (a `DEVICE` first for a receiver new to the client) and a `SKY`
/// when the engine lets the client see its receiver's satellites; `?WATCH={"enable":false}`
/// stops; `?POLL;` repeats the last fix and sky view; `?VERSION;`, `?DEVICES;`; anything else
/// gets gpsd's `ERROR`, as does every refusal.
struct GPSDWire: ProgramWire {
    /// The `release` `VERSION` gives: the installed libgps's, so gpsd's clients (built with it) take
    /// locationd for the gpsd they know; `locationd VERSION` only if that libgps does not say or is
    /// not installed. Asking loads libgps (`cgps_gpsd_release`), at the first greeting.
    static let gpsdRelease = cgps_gpsd_release().map { String(cString: $0) } ?? "locationd \(LocationdVersion.string)"

    var greeting: [UInt8]? { GPSDReply.version(release: Self.gpsdRelease) }

    func error(_ sentence: String) -> [UInt8]? {
        GPSDReply.error(sentence)
    }

    func fix(_ record: LogRecord, newReceiver: [UInt8]?) -> [UInt8] {
        // A receiver new to this client is announced first, as gpsd announces one it adds.
        (newReceiver ?? []) + GPSDReply.tpv(record)
    }

    func sky(_ view: SkyView, client: String) -> [UInt8]? {
        GPSDReply.sky(view, client: client)
    }

    func answer(_ line: ServerConnection.Line, _ program: ProgramWireView) -> ProgramWireAnswer {
        let command: GPSDCommand
        switch line {
        case .tooLong:
            command = .unknown("Request too long (more than \(GPSDCommand.maximumLength) bytes)")
        case .request(let bytes):
            guard let parsed = GPSDCommand.parse(bytes) else { return ProgramWireAnswer() }
            command = parsed
        }
        let devices = { GPSDReply.devices(client: program.client, receivers: program.receivers, activated: program.started) }
        switch command {
        case .watch(let watch?) where watch.enable:
            return ProgramWireAnswer(reply: devices() + GPSDReply.watch(watch), watch: true)
        case .watch(let watch?):
            return ProgramWireAnswer(reply: GPSDReply.watch(watch), watch: false)
        case .watch(nil):
            return ProgramWireAnswer(reply: GPSDReply.watch(GPSDWatch(enable: program.watching, json: program.watching)))
        case .poll:
            return ProgramWireAnswer(reply: GPSDReply.poll(client: program.client, last: program.last, sky: program.sky, time: program.time))
        case .version:
            return ProgramWireAnswer(reply: GPSDReply.version(release: Self.gpsdRelease))
        case .devices:
            return ProgramWireAnswer(reply: devices())
        case .device:
            return ProgramWireAnswer(reply: GPSDReply.error("locationd serves fixes, not a receiver: ?DEVICE cannot configure anything here"))
        case .unknown(let message):
            return ProgramWireAnswer(reply: GPSDReply.error(message), malformed: true)
        }
    }
}
