import LocationCore
import LocationProtocol

/// One client's app side as the daemon acts it for a peer it vouches for: a
/// program on the client's sockets (`ProgramUse`) or a GeoClue bus peer
/// (`GeoClueServer`). Their comings and goings become the engine's ordinary
/// app-side commands (`session`, `start`, `stop`, `request`), sent through the
/// same `ControlHandler` seam as `locationctl`'s, by a peer that is the app of
/// that one client and not the operator (docs/authorization.md, "Programs" and
/// "Apps"):
///
/// * the role is the control socket's (`ControlRole`): a word of the user's side
///   (`authorize`, `answer`, `services`…) or another client's command is
///   refused `not-authorized` by the handler (`EngineOwner.handle`), so nothing
///   an app sends can grant;
/// * its comings and goings are holds (`ClientHolder`) in the core's one
///   registry, so one face's going never ends what another face holds;
/// * the audit log and the journal name the peer's uid and pid; a `status` it
///   reads is an app's (no coordinate).
struct AppSide: Sendable {
    /// The client whose app side this is.
    let client: String
    /// The peer as the control plane sees it: the app of `client` alone, never the operator.
    let peer: ControlPeer
    /// Where a command that fails is noted.
    private let journal: Diagnostics.Subsystem

    /// `client`'s app side, acted for the peer `identity` (its uid, gid, pid and unit are kept;
    /// whatever it may do elsewhere is not); failures are noted under `journal`.
    init(of client: String, for identity: ControlPeer, journal: Diagnostics.Subsystem) {
        self.client = client
        peer = ControlPeer(pid: identity.pid, uid: identity.uid, gid: identity.gid, mayChange: false, apps: [client], unit: identity.unit)
        self.journal = journal
    }

    /// Sends `command` to `handler` as the app; the reply (a command that is not this app's to
    /// send is refused by the handler, `EngineOwner.handle`).
    @discardableResult
    func send(_ command: Command, to handler: any ControlHandler) async -> ControlReply {
        noted(await handler.handle(ControlRequest(.command(command)), from: peer), command)
    }

    /// The same, to the daemon core from a thread of its own (the GeoClue face's), without waiting for the pool.
    @discardableResult
    func send(_ command: Command, synchronouslyTo core: DaemonCore) -> ControlReply {
        noted(core.handle(ControlRequest(.command(command)), from: peer), command)
    }

    /// `holder` holds the client for the app (`ClientHolders`).
    @discardableResult
    func hold(by holder: ClientHolder, to handler: any ControlHandler) async -> ControlReply {
        noted(await handler.hold(client, by: holder, as: peer, id: nil), .session(client: client, inUse: true))
    }

    /// `holder` lets the client go.
    @discardableResult
    func release(by holder: ClientHolder, to handler: any ControlHandler) async -> ControlReply {
        noted(await handler.release(client, by: holder, as: peer, id: nil), .session(client: client, inUse: false))
    }

    /// `hold(by:to:)` to the daemon core from a thread of its own.
    @discardableResult
    func hold(by holder: ClientHolder, synchronouslyTo core: DaemonCore) -> ControlReply {
        noted(core.hold(client, by: holder, as: peer, id: nil), .session(client: client, inUse: true))
    }

    /// `release(by:to:)` to the daemon core from a thread of its own.
    @discardableResult
    func release(by holder: ClientHolder, synchronouslyTo core: DaemonCore) -> ControlReply {
        noted(core.release(client, by: holder, as: peer, id: nil), .session(client: client, inUse: false))
    }

    /// `reply`, noted in the journal when it failed for another reason than the client's permission.
    private func noted(_ reply: ControlReply, _ command: Command) -> ControlReply {
        if let (code, message) = reply.error, code != CommandError.Code.denied.rawValue {
            journal.warning("\(client)'s app (\(peer)): \(ControlRequest(.command(command)).json.serialized): \(code): \(message)")
        }
        return reply
    }
}
