import LocationCore

/// What programs coming and going mean for a client's app state (see
/// docs/authorization.md, "Programs"), carried out in order through the
/// daemon's `ControlHandler` with the engine's ordinary commands, so the
/// audit log and watchers see them as any other:
///
/// * the first program watching a client: `session CLIENT begin` (in use)
///   and `start CLIENT` (unless `updating = on` has it updating already);
/// * every watch: `status CLIENT`; a client that does not deliver gets the
///   program told why and which `locationctl` command would change it;
/// * the last one gone: `session CLIENT end` (unless `in_use = on`; Allow
///   Once's grace starts) and `stop CLIENT` (unless `updating = on`).
///
/// Changes are queued by the program server's loop and carried out one at
/// a time by one task, so a quick connect and disconnect cannot overtake
/// each other.
final class ProgramUse: Sendable {
    /// One change, as the loop saw it.
    enum Change: Sendable {
        /// A program of `endpoint`'s client began watching; `first` when none watched before.
        /// `tell` gets the sentence for a client that does not deliver.
        case began(ProgramEndpoint, peer: ControlPeer, first: Bool, tell: (@Sendable (String) -> Void)?)
        /// A program stopped watching or went; `last` when none watches now.
        case ended(ProgramEndpoint, peer: ControlPeer, last: Bool)
    }

    private let changes: AsyncStream<Change>
    private let queue: AsyncStream<Change>.Continuation

    init() {
        (changes, queue) = AsyncStream.makeStream(of: Change.self)
    }

    /// Queues a change (from the loop thread; never blocks).
    func post(_ change: Change) {
        queue.yield(change)
    }

    /// No more changes: `run` returns after the ones queued.
    func finish() {
        queue.finish()
    }

    /// Carries out the changes in order until `finish()`.
    func run(handler: any ControlHandler) async {
        for await change in changes {
            switch change {
            case .began(let endpoint, let peer, let first, let tell):
                let client = endpoint.client
                if first {
                    await command(.session(client: client, inUse: true), handler, peer)
                    if !endpoint.keepsUpdating { await command(.start(client: client), handler, peer) }
                }
                if let tell, let sentence = await refusal(client, handler, peer) { tell(sentence) }
            case .ended(let endpoint, let peer, let last):
                guard last else { continue }
                let client = endpoint.client
                if !endpoint.keepsInUse { await command(.session(client: client, inUse: false), handler, peer) }
                if !endpoint.keepsUpdating { await command(.stop(client: client), handler, peer) }
            }
        }
    }

    private func command(_ command: Command, _ handler: any ControlHandler, _ peer: ControlPeer) async {
        // The program acts as the app side of its client; the daemon vouches for it.
        var acting = peer
        acting.mayChange = true
        let reply = await handler.handle(ControlRequest(.command(command)), from: acting)
        if let (code, message) = reply.error, code != CommandError.Code.denied.rawValue {
            Diagnostics.programs.warning("programs of \(command.client ?? "?"): \(ControlRequest(.command(command)).json.serialized): \(code): \(message)")
        }
    }

    /// Why `client`'s permission lets nothing through now, with the command
    /// that would change it; `nil` while it is authorized (a receiver without
    /// a fix is no reason to tell a program it is not allowed).
    private func refusal(_ client: String, _ handler: any ControlHandler, _ peer: ControlPeer) async -> String? {
        let reply = await handler.handle(ControlRequest(.status(client: client)), from: peer)
        guard let report = try? reply.statusReport(),
            let status = report.status.clients.first(where: { $0.authorization.client == client })
        else { return nil }
        // Only the permission is the program's business: an outage or a filter is not refused access.
        let authorization = status.authorization
        let allowed = authorization.status == .always || authorization.status == .whileUsing
        guard !allowed, !status.delivering else { return nil }
        var sentence = "locationd: \(client) gets no fixes: \(status.reason)"
        if let step = status.suggestion {
            // A program is not the operator: the user's side is the operator's to send.
            let who = step.word.side == .user ? "the operator can change that with" : "to change that"
            sentence += "; \(who): locationctl \(step.words.joined(separator: " "))"
        }
        return sentence
    }
}
