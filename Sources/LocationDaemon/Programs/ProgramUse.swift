import LocationCore
import LocationProtocol

/// What programs coming and going mean for a client's app state (see
/// docs/authorization.md, "Programs"), carried out in order through the
/// daemon's `ControlHandler`, as the client's app (`AppSide`: never the
/// operator), so the audit log and watchers see them as any other:
///
/// * every program that starts watching holds the client (`ClientHolder`,
///   face `program`, one per connection) in the core's one registry: the
///   first holder of any face begins the session and starts the updates;
/// * every watch: `status CLIENT`; a client that does not deliver gets the
///   program told why and which `locationctl` command would change it;
/// * a program gone lets go: the last holder of every face gone ends the
///   session and stops the updates, never what `in_use = on` or
///   `updating = on` keeps (`ClientHolders`).
///
/// Changes are queued by the program server's loop and carried out one at
/// a time by one task, so a quick connect and disconnect cannot overtake
/// each other.
final class ProgramUse: Sendable {
    /// One change, as the loop saw it.
    enum Change: Sendable {
        /// Connection `holder`'s program began watching `endpoint`'s client.
        /// `tell` gets the sentence for a client that does not deliver.
        case began(ProgramEndpoint, peer: ControlPeer, holder: UInt64, tell: (@Sendable (String) -> Void)?)
        /// Connection `holder`'s program stopped watching or went.
        case ended(ProgramEndpoint, peer: ControlPeer, holder: UInt64)
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
            case .began(let endpoint, let peer, let holder, let tell):
                let app = AppSide(of: endpoint.client, for: peer, journal: Diagnostics.programs)
                await app.hold(by: Self.holder(holder), to: handler)
                if let tell, let sentence = await refusal(app, handler) { tell(sentence) }
            case .ended(let endpoint, let peer, let holder):
                let app = AppSide(of: endpoint.client, for: peer, journal: Diagnostics.programs)
                await app.release(by: Self.holder(holder), to: handler)
            }
        }
    }

    /// Connection `id` as a holder of its client.
    static func holder(_ id: UInt64) -> ClientHolder {
        ClientHolder(.program, "\(id)", updates: true)
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
            sentence += "; \(who): \(step.commandLine)"
        }
        return sentence
    }
}
