import LocationCore

/// What programs coming and going mean for a client's app state (see
/// docs/authorization.md, "Programs"), carried out in order through the
/// daemon's `ControlHandler` with the engine's ordinary commands, sent as the
/// client's app (`AppSide`: never the operator), so the audit log and
/// watchers see them as any other:
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
                let app = AppSide(of: client, for: peer, journal: Diagnostics.programs)
                if first {
                    await app.send(.session(client: client, inUse: true), to: handler)
                    if !endpoint.keepsUpdating { await app.send(.start(client: client), to: handler) }
                }
                if let tell, let sentence = await refusal(app, handler) { tell(sentence) }
            case .ended(let endpoint, let peer, let last):
                guard last else { continue }
                let client = endpoint.client
                let app = AppSide(of: client, for: peer, journal: Diagnostics.programs)
                if !endpoint.keepsInUse { await app.send(.session(client: client, inUse: false), to: handler) }
                if !endpoint.keepsUpdating { await app.send(.stop(client: client), to: handler) }
            }
        }
    }

    /// Why the client's permission lets nothing through now, with the command
    /// that would change it; `nil` while it is authorized (a receiver without
    /// a fix is no reason to tell a program it is not allowed).
    private func refusal(_ app: AppSide, _ handler: any ControlHandler) async -> String? {
        let client = app.client
        let reply = await handler.handle(ControlRequest(.status(client: client)), from: app.peer)
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
