#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem

/// The programs' side of the daemon on a `ServerLoop` (docs/protocol.md,
/// "Programs"): who is admitted to a client's program sockets, what each
/// program got, the counts, and its watching and going away as the client's
/// app state (through `ProgramUse`). What is said on each socket is its
/// endpoint's `ProgramWire`: gpsd's JSON protocol (`GPSDWire`) or NMEA
/// sentences (`NMEAWire`).
///
/// * A fix (or sky view) for many programs of one protocol is encoded once.
/// * A program that falls `watcherBacklog` bytes behind is cut off; the
///   others and the log never wait for it.
final class ProgramConversation: ServerConversation {
    private struct Program {
        var endpoint: Int
        var peer: ProgramPeer
        var watching = false
        var last: LogRecord?
        var delivered = 0
        /// The sky view this program got last under its client's current grant (`?POLL` repeats it).
        var sky: SkyView?
        /// Whether `sky` went out during this watch: an unchanged view is not sent twice in one watch.
        var skySent = false
    }

    let name = "program sockets"
    let journal = Diagnostics.programs
    let requestTerminator: UInt8? = UInt8(ascii: ";")
    let maximumLineLength = GPSDCommand.maximumLength
    private let endpoints: [ProgramEndpoint]
    private let sinks: ProgramSinks
    private let use: ProgramUse
    private let started: Double
    private let limits: ServerLimits
    private var programs: [UInt64: Program] = [:]
    private var order: [UInt64] = []
    private var watchers: [String: Int] = [:]
    /// Per client, the receivers its sockets have served fixes from, in order: what `DEVICES` lists.
    private var receivers: [String: [GPSDReply.Device]] = [:]
    private var changed = false

    /// Serves `endpoints` (in the order of the loop's listeners).
    init(endpoints: [ProgramEndpoint], sinks: ProgramSinks, use: ProgramUse, started: Double, limits: ServerLimits) {
        self.limits = limits
        self.endpoints = endpoints
        self.sinks = sinks
        self.use = use
        self.started = started
    }

    // MARK: Connecting

    func admit(_ fd: Int32, listener: Int, load: ServerLoad) -> ServerAdmission {
        let endpoint = endpoints[listener]
        // The unit only where the client names its app by unit (a cgroup read per connection).
        let wanting: ProcessFacts.Wanted = endpoint.allow.units.isEmpty ? [.name] : [.name, .unit]
        let found: ProgramPeer?
        switch endpoint.place {
        case .unix: found = ProgramPeer.unix(fd, wanting: wanting)
        case .loopback: found = ProgramPeer.loopback(fd, wanting: wanting)
        }
        guard let peer = found else {
            guard endpoint.allow.everyone else {
                refuse(fd, endpoint, why: "locationd cannot tell who connected, and \(endpoint.key) of \(endpoint.client) admits only allow_users/allow_groups")
                return .refuse
            }
            return admitWithinLimits(PeerCredentials.unknown, endpoint, load: load)
        }
        guard endpoint.allow.admits(peer.principal) else {
            refuse(fd, endpoint, why: "uid \(peer.principal.uid) is not in allow_users or allow_groups of [client.\(endpoint.client)], nor its app (app_users, app_groups, app_units)", peer: peer)
            return .refuse
        }
        let admission = admitWithinLimits(PeerCredentials(peer.principal), endpoint, load: load)
        if case .serve = admission { pendingPeer = peer }
        return admission
    }

    /// Serves `peer` unless a connection limit refuses it (`busy`: counted, not audited — a limit
    /// is no decision about who the peer is, and a storm must not write the audit log).
    private func admitWithinLimits(_ peer: PeerCredentials, _ endpoint: ProgramEndpoint, load: ServerLoad) -> ServerAdmission {
        if let reason = limits.refusal(
            uid: peer.uid, reserved: false, open: load.open, ofUser: load.connections(ofUser: peer.uid), serving: connectionNoun)
        {
            sinks.countBusy(endpoint.client)
            return .busy(reason)
        }
        return .serve(peer)
    }

    /// The peer `admit` just let in, for `opened` (the loop calls one right after the other).
    private var pendingPeer: ProgramPeer?

    /// Which refusals reach the audit log and the journal (every one is counted).
    private var throttle = RefusalThrottle()

    private func refuse(_ fd: Int32, _ endpoint: ProgramEndpoint, why: String, peer: ProgramPeer? = nil) {
        sinks.countRefused(endpoint.client)
        if let line = endpoint.wire.error("locationd: refused: \(why)") {
            _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        }
        let credentials = peer?.credentials ?? ControlPeer(pid: 0, uid: UInt32.max, gid: UInt32.max, mayChange: false)
        let key = RefusalThrottle.Key(client: endpoint.client, socket: endpoint.key, uid: credentials.uid)
        guard let unrecorded = throttle.record(key, now: SystemClock.monotonic()) else { return }
        let who = peer.map { "\($0.name.map(PeerText.escaped) ?? "a program") (\($0.credentials))" } ?? "a program"
        let repeats = unrecorded == 0 ? "" : " (and \(unrecorded) refusal\(unrecorded == 1 ? "" : "s") of the same peer before, counted in status, not recorded)"
        Diagnostics.programs.notice("\(endpoint.name): refused \(who): \(why)\(repeats)")
        var arguments: [(String, JSONValue)] = [("via", .string(endpoint.key)), ("refused", .string(why))]
        if unrecorded > 0 { arguments.append(("unrecorded", .number(Double(unrecorded)))) }
        let record = AuditRecord(
            time: SystemClock.utc(), peer: credentials, command: "connect", client: endpoint.client,
            arguments: .object(arguments), before: .null, after: .null)
        refused(record)
    }

    /// Where refusals are audited (set by the server).
    var refused: @Sendable (AuditRecord) -> Void = { _ in }

    let connectionNoun = "program connections"

    func busyLine(_ reason: String, listener: Int) -> [UInt8] {
        endpoints[listener].wire.error(reason) ?? []
    }

    func tooSlowLine(backlog: Int, listener: Int) -> [UInt8] {
        endpoints[listener].wire.error(
            "locationd: this program fell more than \(backlog) bytes behind and was cut off; read reports as they come") ?? []
    }

    func stoppingLine(for connection: ServerConnection) -> [UInt8]? {
        endpoints[connection.listener].wire.error("locationd is stopping")
    }

    func opened(_ connection: ServerConnection, loop: ServerLoop<ProgramConversation>, now: Double) {
        let identity = connection.peer
        let peer = pendingPeer ?? ProgramPeer(principal: Principal(uid: identity.uid, gid: identity.gid, groups: nil, pid: 0))
        pendingPeer = nil
        programs[connection.id] = Program(endpoint: connection.listener, peer: peer)
        order.append(connection.id)
        changed = true
        if let greeting = endpoints[connection.listener].wire.greeting {
            connection.output.enqueue(greeting)
        } else {
            beginWatch(connection)
        }
        publishIfChanged()
    }

    // MARK: Requests

    func dispatch(
        _ line: ServerConnection.Line, on connection: ServerConnection, loop: ServerLoop<ProgramConversation>, now: Double
    ) {
        guard let program = programs[connection.id] else { return }
        let endpoint = endpoints[program.endpoint]
        let view = ProgramWireView(
            client: endpoint.client, watching: program.watching, last: program.last, sky: program.sky,
            receivers: receivers[endpoint.client] ?? [], started: started, time: SystemClock.utc())
        let answer = endpoint.wire.answer(line, view)
        if answer.malformed { loop.countMalformed() }
        if !answer.reply.isEmpty { connection.output.enqueue(answer.reply) }
        switch answer.watch {
        case true? where !program.watching: beginWatch(connection)
        case false? where program.watching: endWatch(connection)
        default: break
        }
        publishIfChanged()
    }

    // MARK: Watching

    private func beginWatch(_ connection: ServerConnection) {
        guard var program = programs[connection.id], !program.watching else { return }
        let endpoint = endpoints[program.endpoint]
        program.watching = true
        programs[connection.id] = program
        connection.streaming = true
        let first = watchers[endpoint.client, default: 0] == 0
        watchers[endpoint.client, default: 0] += 1
        if first { sinks.setWatched(endpoint.client, true) }
        changed = true
        let output = connection.output
        let wire = endpoint.wire
        let name = endpoint.name
        // Told to the program when its protocol can say it, else to the journal.
        let tell: @Sendable (String) -> Void = { sentence in
            if let line = wire.error(sentence) {
                output.enqueue(line)
            } else {
                Diagnostics.programs.notice("\(name): a program connected; \(sentence)")
            }
        }
        use.post(.began(endpoint, peer: program.peer.credentials, holder: connection.id, tell: tell))
    }

    private func endWatch(_ connection: ServerConnection) {
        guard var program = programs[connection.id], program.watching else { return }
        let endpoint = endpoints[program.endpoint]
        program.watching = false
        program.skySent = false
        programs[connection.id] = program
        connection.streaming = false
        watchers[endpoint.client, default: 1] -= 1
        let last = watchers[endpoint.client] == 0
        if last {
            watchers[endpoint.client] = nil
            sinks.setWatched(endpoint.client, false)
        }
        changed = true
        use.post(.ended(endpoint, peer: program.peer.credentials, holder: connection.id))
    }

    // MARK: Deliveries

    /// Adds the receivers `records` bring to their clients' lists; returns, by record index, the
    /// `DEVICE` notice of each record whose receiver is new to its client.
    private func noteReceivers(_ records: [LogRecord], time: Double) -> [Int: [UInt8]] {
        var notices: [Int: [UInt8]] = [:]
        for (index, record) in records.enumerated() {
            let path = GPSDReply.deviceName(of: record)
            if receivers[record.client]?.contains(where: { $0.path == path }) == true { continue }
            let device = GPSDReply.Device(path: path, activated: time)
            receivers[record.client, default: []].append(device)
            notices[index] = GPSDReply.device(device)
        }
        return notices
    }

    func wake(_ loop: ServerLoop<ProgramConversation>, now: Double) {
        let (records, regranted, skies) = sinks.take()
        let report = records.isEmpty ? nil : sinks.report
        let time = SystemClock.utc()
        if !records.isEmpty {
            let notices = noteReceivers(records, time: time)
            // Each record encoded once per protocol.
            var encoded: [ProgramEndpoint.Kind: [Int: [UInt8]]] = [:]
            for connection in loop.openConnections {
                guard var program = programs[connection.id], program.watching else { continue }
                let endpoint = endpoints[program.endpoint]
                for (index, record) in records.enumerated() where record.client == endpoint.client {
                    let bytes = encoded[endpoint.kind]?[index] ?? endpoint.wire.fix(record, newReceiver: notices[index])
                    encoded[endpoint.kind, default: [:]][index] = bytes
                    // A program too far behind is cut off here; the loop closes it.
                    guard connection.output.send(bytes) else { break }
                    program.last = record
                    program.delivered += 1
                    report?.count(
                        record.client, sink: endpoint.sink, accuracy: record.accuracy,
                        peer: AccessPeer(uid: program.peer.credentials.uid == UInt32.max ? nil : program.peer.credentials.uid, name: program.peer.name),
                        time: time)
                }
                programs[connection.id] = program
            }
            changed = true
        }
        if !skies.isEmpty { sendSkies(skies, loop) }
        if !regranted.isEmpty {
            // The grant those fixes came under is gone: a `?POLL` must not repeat them.
            for (id, program) in programs where regranted.contains(endpoints[program.endpoint].client) {
                programs[id]?.last = nil
                programs[id]?.sky = nil
                programs[id]?.skySent = false
            }
        }
        publishIfChanged()
    }

    /// A sky view to each watching program of the clients the engine let see it whose
    /// protocol has one (gpsd's `SKY`, docs/protocol.md "SKY"; NMEA sockets get none).
    private func sendSkies(_ skies: [String: SkyView], _ loop: ServerLoop<ProgramConversation>) {
        var lines: [ProgramEndpoint.Kind: [String: [UInt8]]] = [:]
        for connection in loop.openConnections {
            guard var program = programs[connection.id], program.watching else { continue }
            let endpoint = endpoints[program.endpoint]
            guard let view = skies[endpoint.client], !(program.skySent && view == program.sky),
                let line = lines[endpoint.kind]?[endpoint.client] ?? endpoint.wire.sky(view, client: endpoint.client)
            else { continue }
            lines[endpoint.kind, default: [:]][endpoint.client] = line
            // A program too far behind is cut off here; the loop closes it.
            guard connection.output.send(line) else { continue }
            program.sky = view
            program.skySent = true
            programs[connection.id] = program
        }
    }

    func cutOff(_ connection: ServerConnection, loop: ServerLoop<ProgramConversation>) {
        guard let program = programs[connection.id] else { return }
        let endpoint = endpoints[program.endpoint]
        sinks.countCutOff(endpoint.client)
        Diagnostics.programs.info(
            "\(endpoint.name): cut off \(program.peer.name.map(PeerText.escaped) ?? "a program") (\(program.peer.credentials)): it fell too far behind")
    }

    func closed(_ connection: ServerConnection, loop: ServerLoop<ProgramConversation>) {
        endWatch(connection)
        programs[connection.id] = nil
        order.removeAll { $0 == connection.id }
        changed = true
        publishIfChanged()
    }

    private func publishIfChanged() {
        guard changed else { return }
        changed = false
        let list = order.compactMap { id -> ConnectedProgram? in
            guard let program = programs[id] else { return nil }
            let peer = program.peer
            let endpoint = endpoints[program.endpoint]
            return ConnectedProgram(
                client: endpoint.client, via: endpoint.key, pid: peer.pidKnown ? peer.credentials.pid : nil,
                uid: peer.credentials.uid == UInt32.max ? nil : peer.credentials.uid, name: peer.name,
                watching: program.watching, delivered: program.delivered)
        }
        sinks.publish(list)
    }
}
