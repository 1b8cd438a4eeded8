import LocationCore
import LocationProtocol
import LocationValues

/// A face: one way positions leave the daemon — the clients' logs, the
/// watchers (`locationctl watch`), the program sockets, MQTT. The output seam,
/// as `FixSource`/`SourceSink` is the input seam, shaped as swift-nio's channel
/// handlers: every requirement but the sinks has a default, so a face says only
/// what it does.
///
/// * The engine's owner hands each face, under the engine's lock and in the
///   engine's order, the deliveries of each fix (`deliver`, while
///   `wantsDeliveries`), each engine event (`observe`; an authorization change
///   also as `grantChanged`), each receiver's sky view to the clients the engine
///   lets see it (`deliverSky`, while `wantsSky`), then `carried()` at the end of
///   the input. None of these may block: a face that writes to peers queues
///   and lets a thread of its own write (`ProgramSinks`), or reads the log
///   back (`BrokerBoard`'s publishers).
/// * `status` gathers each face's `statusSection`, in the order of the faces.
/// * The access report counts each face's positions under its `reportSinks`,
///   in the ledger handed to `attach` (the daemon's; a replay attaches none).
///
/// A new face: a class conforming to `OutputFace` in a folder of its own, its
/// sink a `ReportSink` static member beside it, its section (if any) a
/// `StatusSection` in LocationCore; its `Face` hands it over (`Face.output`), and
/// `FaceList` orders the faces. The logs (`LogFace`) and the watchers
/// (`WatcherList`) are the engine owner's own and come first.
protocol OutputFace: AnyObject {
    /// The access report's sinks this face counts its positions under.
    var reportSinks: [ReportSink] { get }
    /// Whether the face takes deliveries now (asked once per fix; default: never).
    var wantsDeliveries: Bool { get }
    /// The deliveries of one fix, to one client or many.
    func deliver(_ deliveries: FaceDeliveries)
    /// An engine event, stamped `time` (UTC seconds; the input's own time in a replay).
    func observe(_ event: Event, time: Double?)
    /// `client`'s authorization changed (status, accuracy, Location Services): what went out
    /// under the old one must not be repeated.
    func grantChanged(_ client: String)
    /// Whether the face takes sky views now (default: never).
    var wantsSky: Bool { get }
    /// A receiver's sky view for `clients` (full accuracy, delivering from that receiver).
    func deliverSky(_ view: SkyView, to clients: [String])
    /// The input's effects are all handed over: write or wake what was queued.
    func carried()
    /// This face's part of `status` (default: none).
    var statusSection: (any StatusSection)? { get }
    /// Counts what the face hands out in `report` from now on (default: counts nothing).
    func attach(_ report: AccessLedger)
}

extension OutputFace {
    var wantsDeliveries: Bool { false }
    func deliver(_ deliveries: FaceDeliveries) {}
    func observe(_ event: Event, time: Double?) {}
    func grantChanged(_ client: String) {}
    var wantsSky: Bool { false }
    func deliverSky(_ view: SkyView, to clients: [String]) {}
    func carried() {}
    var statusSection: (any StatusSection)? { nil }
    func attach(_ report: AccessLedger) {}
}

/// The deliveries of one fix (a run of `.deliver` items of one `EffectList`: the fix stored
/// once, its clients by index), as a face is handed them.
struct FaceDeliveries {
    /// The run.
    let run: ArraySlice<EffectList.Item>
    /// The list it is part of (names, fixes).
    let list: EffectList
    /// When the input was carried (UTC seconds), if known: what the access report counts at.
    let time: Double?

    /// Each delivery, whole.
    func forEach(_ body: (Delivery) -> Void) {
        for item in run {
            guard case .deliver(let item) = item else { continue }
            body(list.delivery(item))
        }
    }
}
