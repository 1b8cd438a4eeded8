import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues

/// A face as the daemon runs it: the seam through which a face that makes clients, holds
/// sessions or serves peers on a thread of its own plugs into `Daemon` and `DaemonCore`, as
/// `OutputFace` is the seam of its deliveries. Shaped as swift-nio's handlers and
/// swift-service-lifecycle's services: every requirement but the name and the making has a
/// default, so a face says only what it does, and nothing in `Daemon/` names it.
///
/// * `make(config:)` is called once at start, before the core, for every face in `FaceList`; a
///   face the configuration does not use is not made (`nil`), and a daemon without it holds
///   nothing of it. (What would make a face used — `[geoclue]`, a program socket, an MQTT
///   broker — takes effect only at a restart, so a reload never needs one that was not made.)
/// * `hostProblems` is what only this machine can say of the configuration (a program socket's
///   group exists): `locationd check-config` and start-up report it as the file's problems.
/// * `output` is its delivery side, handed the engine's effects after the logs and the watchers,
///   in the order of `FaceList` (which is the order `status` lists the sections).
/// * `overlay` lays the clients the face makes over every configuration the core takes — at
///   start, on SIGHUP, and when the face says its clients changed (`DaemonCore.reapplyFaces`).
/// * `service` is its long-running part, started in the service group before or after the
///   control socket (`start`), stopped in reverse; it throws what keeps the daemon from starting.
/// * A face whose peers hold clients names itself to the core's holder registry with a
///   `ClientHolder.Face` static member beside it (as `ReportSink` for the access report).
/// * How restart-only its keys are is `reloadNeedsRestart`; its part of `status` is its
///   `OutputFace.statusSection`, rendered on the terminal by the section's own
///   `StatusSectionText` conformance in LocationTools.
///
/// A new face: a folder holding its `Face`, its `OutputFace`, its service and its section; one
/// line in `FaceList.kinds` (ARCHITECTURE.md, "Adding a face").
protocol Face: AnyObject, Sendable {
    /// `mqtt`, `programs`, `geoclue`.
    var name: String { get }
    /// The face for the configuration `config` as the file says (before any face's overlay);
    /// `nil` when `config` does not use it.
    static func make(config: DaemonConfig) -> Self?
    /// What only this host can say is wrong with `config` for this face (default: nothing).
    static func hostProblems(_ config: DaemonConfig) -> [ConfigError]
    /// The reloaded configuration's changes this face takes only at a restart, named for the
    /// journal (default: none); `reload.effective` keeps the running values of what it names.
    static func reloadNeedsRestart(_ reload: inout ConfigReload, running: DaemonConfig)
    /// Its delivery side (default: none).
    var output: (any OutputFace)? { get }
    /// `config` with the clients this face makes laid over it (default: `config` as it is).
    func overlay(_ config: DaemonConfig) -> DaemonConfig
    /// When its service starts (default: after the control socket).
    var start: FaceStart { get }
    /// Its service for `core`, `config` being the file's at start, or `nil` for none (default: none).
    func service(config: DaemonConfig, core: DaemonCore) throws -> (any Service)?
}

/// Where a face's service starts in the group (and so where it stops: in reverse).
enum FaceStart: Sendable {
    /// Before the control socket, so it stops after it (a face that only reads back what the
    /// core wrote, and tells the watchers of its changes until the socket closes).
    case beforeControl
    /// After the control socket, before the sources (a face that serves peers of its own).
    case afterControl
}

extension Face {
    static func hostProblems(_ config: DaemonConfig) -> [ConfigError] { [] }
    static func reloadNeedsRestart(_ reload: inout ConfigReload, running: DaemonConfig) {}
    var output: (any OutputFace)? { nil }
    func overlay(_ config: DaemonConfig) -> DaemonConfig { config }
    var start: FaceStart { .afterControl }
    func service(config: DaemonConfig, core: DaemonCore) throws -> (any Service)? { nil }
}

extension Array where Element == any Face {
    /// `config` with every face's clients laid over it, in order.
    func overlay(_ config: DaemonConfig) -> DaemonConfig {
        reduce(config) { config, face in face.overlay(config) }
    }
}
