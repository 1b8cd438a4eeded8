import LocationCore

/// One client's app side as the daemon acts it for a peer it vouches for: a
/// program on the client's sockets (`ProgramUse`) or a GeoClue bus peer
/// (`GeoClueFace`). Their comings and goings become the engine's ordinary
/// app-side commands (`session`, `start`, `stop`, `request`), sent through the
/// same `ControlHandler` seam as `locationctl`'s, by a peer that is the app of
/// that one client and not the operator (docs/authorization.md, "Programs" and
/// "Apps"):
///
/// * the role is the control socket's (`ControlRole`): a word of the user's side
///   (`authorize`, `answer`, `services`…) or another client's command is
///   refused `not-authorized` before the handler hears of it, so nothing an app
///   sends can grant;
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

    /// Sends `command` to `handler` as the app; the reply, or the refusal when it is not this app's to send.
    @discardableResult
    func send(_ command: Command, to handler: any ControlHandler) async -> ControlReply {
        switch admit(command) {
        case .failure(let refusal): return refusal.reply
        case .success(let request): return noted(await handler.handle(request, from: peer), command)
        }
    }

    /// The same, to the daemon core from a thread of its own (the GeoClue face's), without waiting for the pool.
    @discardableResult
    func send(_ command: Command, synchronouslyTo core: DaemonCore) -> ControlReply {
        switch admit(command) {
        case .failure(let refusal): return refusal.reply
        case .success(let request): return noted(core.handle(request, from: peer), command)
        }
    }

    /// `command` as a request the app may send, or the `not-authorized` error the control socket would give.
    private func admit(_ command: Command) -> Result<ControlRequest, ProtocolError> {
        let request = ControlRequest(.command(command))
        guard let refusal = peer.role.refusal(request, group: nil) else { return .success(request) }
        journal.warning("\(client)'s app (\(peer)) may not send \(request.json.serialized): \(refusal.message)")
        return .failure(refusal)
    }

    /// `reply`, noted in the journal when it failed for another reason than the client's permission.
    private func noted(_ reply: ControlReply, _ command: Command) -> ControlReply {
        if let (code, message) = reply.error, code != CommandError.Code.denied.rawValue {
            journal.warning("\(client)'s app (\(peer)): \(ControlRequest(.command(command)).json.serialized): \(code): \(message)")
        }
        return reply
    }
}
