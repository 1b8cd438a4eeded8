import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import LocationValues

/// The control plane and the audit log: requests, who holds a client, watchers, a face's
/// prompt withdrawn or event audited.
extension EngineOwner {
    /// Answers `request` from `peer`: every face's commands come here, and each is checked here
    /// against the peer's role (`ControlRole`), whatever its face checked before: the user's side
    /// is the operator's, an app's side its own client's (docs/protocol.md, "Roles").
    func handle(_ request: ControlRequest, from peer: ControlPeer) -> ControlReply {
        if let refusal = refusal(request, from: peer) { return refusal }
        switch request.operation {
        case .hello:
            let clients = engine.settings.clients.map {
                HelloReply.Client(name: $0.name, log: carrier.logs.path(of: $0.name))
            }
            return .hello(id: request.id, HelloReply(clients: clients))
        case .status(let client):
            let report = disclosure(to: peer).status(statusReport())
            guard let client else { return .status(id: request.id, report) }
            guard let one = report.only(client: client) else {
                return .unknownClient(id: request.id, client: client, known: engine.settings.clients.map(\.name))
            }
            return .status(id: request.id, one)
        case .prompts:
            return .prompts(id: request.id, engine.prompts)
        case .report(let client, let since):
            let known = engine.settings.clients.map(\.name)
            if let client, !known.contains(client) {
                return .unknownClient(id: request.id, client: client, known: known)
            }
            // The operator sees every client, an app its own, anyone else none.
            let mine = Set(peer.apps)
            let now = clock.wall()
            let result = report.report(since: now - (since ?? Double(config.reportDays) * 86_400), now: now) { name in
                (client == nil || name == client) && (peer.mayChange || mine.contains(name))
            }
            return .ok(id: request.id, fields: result.json.objectValue ?? [])
        case .watch:
            return .error(
                id: request.id, code: CommandError.Code.invalidArgument.rawValue,
                message: "watch turns the connection into an event stream; the server handles it")
        case .command(.stop(let client)) where !peer.mayChange && holders.updating(client) > 0:
            // An app's own `stop` ends nothing other faces hold (docs/authorization.md, "Who holds a client").
            let count = holders.updating(client)
            let faces = holders.updatingFaces(of: client).map(\.holders).joined(separator: ", ")
            let message = "\(client) keeps updating: \(count) holder\(count == 1 ? "" : "s") of its faces (\(faces)) hold\(count == 1 ? "s" : "") it"
            return ControlReply(id: request.id, result: .success(CommandOutcome(changed: false, message: message)))
        case .command(let command):
            return run(command, request, from: peer).reply
        }
    }

    /// The `not-authorized` reply when `peer`'s role may not send `request`, else `nil`.
    func refusal(_ request: ControlRequest, from peer: ControlPeer) -> ControlReply? {
        guard let refusal = peer.role.refusal(request, group: config.socketGroup) else { return nil }
        Diagnostics.daemon.info("\(peer) may not send \(request.json.serialized): \(refusal.message)")
        return refusal.reply
    }

    /// Runs an engine command (already checked against the peer's role); the reply, and whether it changed anything.
    func run(_ command: Command, _ request: ControlRequest, from peer: ControlPeer) -> (reply: ControlReply, changed: Bool) {
        guard !stopped else {
            return (
                .error(
                    id: request.id, code: ControlServer.shuttingDownCode,
                    message: "locationd is stopping; try again when it has restarted"), false
            )
        }
        let now = clock.monotonic()
        // After the audit line too: one that could not be written is retried by the tick.
        defer { rearm(now: now) }
        let before = AuditRecord.state(of: command, in: engine.status(now: now))
        let result = engine.handle(command, now: now)
        effects = EffectList(result.effects)
        carry(now: now)
        let reply = ControlReply(id: request.id, result: result.outcome)
        guard case .success(let outcome) = result.outcome else { return (reply, false) }
        let save = stateSave
        if outcome.changed {
            Diagnostics.daemon.notice("\(peer): \(ControlRequest(.command(command)).json.serialized): \(outcome.message)")
            if let warning = save.warning { Diagnostics.daemon.warning("\(outcome.message): \(warning)") }
            audit.record(
                AuditRecord(
                    time: clock.wall(), peer: peer, request: request, before: before,
                    after: AuditRecord.state(of: command, in: engine.status(now: now))))
        }
        return (reply.noting(save), outcome.changed)
    }

    // MARK: - Who holds a client

    /// `holder` holds `client` for its app `peer` (`ClientHolders`): the first holder of any face
    /// begins the session, the first wanting updates starts them, as `session CLIENT begin` and
    /// `start CLIENT` from the peer (checked, audited and watched as any). The reply is the last
    /// command's, or says who holds the client when nothing was to be done.
    func hold(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue? = nil) -> ControlReply {
        let begin = ControlRequest(id: id, .command(.session(client: client, inUse: true)))
        if let refusal = refusal(begin, from: peer) { return refusal }
        guard engine.authorization(of: client) != nil else {
            return .unknownClient(id: id, client: client, known: engine.settings.clients.map(\.name))
        }
        let due = holders.hold(client, by: holder)
        var reply: ControlReply?
        if due.session {
            let (began, changed) = run(.session(client: client, inUse: true), begin, from: peer)
            holders.began(client, changed: changed)
            reply = began
        }
        if due.updates {
            let (started, changed) = run(.start(client: client), ControlRequest(id: id, .command(.start(client: client))), from: peer)
            holders.started(client, changed: changed)
            if reply?.error == nil { reply = started }
        }
        return reply ?? heldReply(client, id: id)
    }

    /// `holder` no longer holds `client`: the last holder of every face gone ends the session the
    /// registry began, the last wanting updates stops the updates it started, as `session CLIENT
    /// end` and `stop CLIENT` from the peer.
    func release(_ client: String, by holder: ClientHolder, as peer: ControlPeer, id: JSONValue? = nil) -> ControlReply {
        let end = ControlRequest(id: id, .command(.session(client: client, inUse: false)))
        if let refusal = refusal(end, from: peer) { return refusal }
        let due = holders.release(client, by: holder)
        var reply: ControlReply?
        if due.updates { reply = run(.stop(client: client), ControlRequest(id: id, .command(.stop(client: client))), from: peer).reply }
        if due.session {
            let ended = run(.session(client: client, inUse: false), end, from: peer).reply
            if reply?.error == nil { reply = ended }
        }
        return reply ?? heldReply(client, id: id)
    }

    /// How many holders `client` has, of every face.
    func holderCount(of client: String) -> Int { holders.count(of: client) }

    /// `client`'s own reduced position for `fix` (`Engine.reducedPosition`), for a face that
    /// narrows its own deliveries to reduced accuracy; `fix` nil: the one of the interval running now.
    func reducedPosition(of client: String, for fix: Fix?) -> Fix? {
        guard !stopped else { return nil }
        return engine.reducedPosition(of: client, for: fix, now: clock.monotonic())
    }

    func heldReply(_ client: String, id: JSONValue?) -> ControlReply {
        let count = holders.count(of: client)
        let message =
            count == 0
            ? "\(client): nothing held it; its session and updates are as they were"
            : "\(client) stays as it is: \(count) holder\(count == 1 ? "" : "s") of its faces hold\(count == 1 ? "s" : "") it"
        return ControlReply(id: id, result: .success(CommandOutcome(changed: false, message: message)))
    }

    func watch(_ request: ControlRequest, client: String?, from peer: ControlPeer, sink: any WatchSink) -> WatcherID? {
        if let client, engine.authorization(of: client) == nil {
            let reply = ControlReply.unknownClient(id: request.id, client: client, known: engine.settings.clients.map(\.name))
            _ = sink.send(Array(reply.line().utf8))
            return nil
        }
        let withheld = disclosure(to: peer).withheldNote(group: config.socketGroup, watching: client)
        let reply = ControlReply.watching(id: request.id, client: client, withheld: withheld)
        guard sink.send(Array(reply.line().utf8)) else { return nil }
        let snapshot = ControlEvent.snapshot(
            source: engine.status(now: clock.monotonic()).source, authorizations: engine.authorizations,
            prompts: engine.prompts, failingLogs: carrier.logs.failing, stateSave: stateSave, time: clock.wall(),
            client: client)
        for event in snapshot {
            guard sink.send(event.line()) else { return nil }
        }
        return watchers.add(client: client, sink: sink, peer: peer)
    }

    /// What `peer` may see now: the one read-tier decision for status and
    /// watch (docs/protocol.md § Read tiers); the watchers' broadcast filters
    /// through the same `Disclosure`.
    func disclosure(to peer: ControlPeer) -> Disclosure {
        peer.disclosure(services: engine.servicesOn)
    }

    /// Withdraws `client`'s pending prompt: the app that asked went away (`Engine.withdrawPrompt`).
    func withdrawPrompt(of client: String, reason: String) {
        guard !stopped else { return }
        let now = clock.monotonic()
        effects = EffectList(engine.withdrawPrompt(of: client, reason: reason, now: now))
        carry(now: now)
        rearm(now: now)
    }

    /// A face's event (a refused peer) for the audit log.
    func auditFace(_ record: AuditRecord) {
        guard !stopped else { return }
        audit.record(record)
        rearm(now: clock.monotonic())
    }

    func unwatch(_ watcher: WatcherID) {
        watchers.remove(watcher)
    }

    func announce(_ event: ControlEvent) {
        guard !stopped else { return }
        watchers.broadcast([event], services: engine.servicesOn)
    }
}
