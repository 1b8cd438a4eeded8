#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem

/// The programs' side of the daemon on a `ServerLoop`: gpsd's JSON protocol
/// on a client's `gpsd_socket` and `gpsd_port`, NMEA sentences on its
/// `nmea_socket` (docs/protocol.md, "Programs").
///
/// * gpsd protocol: `VERSION` on connect; `?WATCH={"enable":true}` answered
///   with `DEVICES` and `WATCH`, then a `TPV` per fix delivered to the
///   client, and a `SKY` when the engine lets the client see its receiver's
///   satellites (full accuracy only); `?WATCH={"enable":false}` stops; `?POLL;` repeats the last fix
///   and the last sky view this program got; `?VERSION;`, `?DEVICES;`; anything else gets gpsd's
///   `ERROR`.
/// * NMEA: the stream starts when the program connects; what it sends is ignored.
/// * A program that falls `watcherBacklog` bytes behind is cut off; the
///   others and the log never wait for it.
/// * Watching and going away become the client's app state through `ProgramUse`.
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
    let requestTerminator: UInt8? = UInt8(ascii: ";")
    let maximumLineLength = GPSDCommand.maximumLength
    private let endpoints: [ProgramEndpoint]
    private let sinks: ProgramSinks
    private let use: ProgramUse
    private let started: Double
    private var programs: [UInt64: Program] = [:]
    private var order: [UInt64] = []
    private var watchers: [String: Int] = [:]
    /// Per client, the receivers its sockets have served fixes from, in order: what `DEVICES` lists.
    private var receivers: [String: [GPSDReply.Device]] = [:]
    private var changed = false

    /// Serves `endpoints` (in the order of the loop's listeners).
    init(endpoints: [ProgramEndpoint], sinks: ProgramSinks, use: ProgramUse, started: Double) {
        self.endpoints = endpoints
        self.sinks = sinks
        self.use = use
        self.started = started
    }

    // MARK: Connecting

    func admit(_ fd: Int32, listener: Int) -> PeerCredentials? {
        let endpoint = endpoints[listener]
        let found: ProgramPeer?
        switch endpoint.place {
        case .unix: found = ProgramPeer.unix(fd)
        case .loopback: found = ProgramPeer.loopback(fd)
        }
        guard let peer = found else {
            guard endpoint.allow.everyone else {
                refuse(fd, endpoint, why: "locationd cannot tell who connected, and \(endpoint.key) of \(endpoint.client) admits only allow_users/allow_groups")
                return nil
            }
            return PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max, mayChange: false)
        }
        let ids = peer.credentials
        // The unit only where the client names its app by unit (a pidfd and a /proc read per connection).
        var unit: String?
        if !endpoint.allow.units.isEmpty, peer.pidKnown {
            if case .unix = endpoint.place { unit = PeerProcess.unit(socket: fd, pid: ids.pid) } else { unit = PeerProcess.unit(pid: ids.pid) }
        }
        guard endpoint.allow.admits(uid: ids.uid, gid: ids.gid, groups: peer.groups, unit: unit) else {
            refuse(fd, endpoint, why: "uid \(ids.uid) is not in allow_users or allow_groups of [client.\(endpoint.client)], nor its app (app_users, app_groups, app_units)", peer: peer)
            return nil
        }
        pendingPeer = peer
        return ids
    }

    /// The peer `admit` just let in, for `opened` (the loop calls one right after the other).
    private var pendingPeer: ProgramPeer?

    /// Which refusals reach the audit log and the journal (every one is counted).
    private var throttle = RefusalThrottle()

    private func refuse(_ fd: Int32, _ endpoint: ProgramEndpoint, why: String, peer: ProgramPeer? = nil) {
        sinks.countRefused(endpoint.client)
        if endpoint.kind == .gpsd {
            let line = GPSDReply.error("locationd: refused: \(why)")
            _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        }
        let credentials = peer?.credentials ?? PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max, mayChange: false)
        let key = RefusalThrottle.Key(client: endpoint.client, socket: endpoint.key, uid: credentials.uid)
        guard let unrecorded = throttle.record(key, now: SystemClock.monotonic()) else { return }
        let who = peer.map { "\($0.name ?? "a program") (\($0.credentials))" } ?? "a program"
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
        endpoints[listener].kind == .gpsd ? GPSDReply.error(reason) : []
    }

    func refusedBusy(listener: Int) {
        // Counted, not audited: a limit is no decision about who the peer is, and a storm must not write the audit log.
        sinks.countBusy(endpoints[listener].client)
    }

    func tooSlowLine(backlog: Int, listener: Int) -> [UInt8] {
        guard endpoints[listener].kind == .gpsd else { return [] }
        return GPSDReply.error("locationd: this program fell more than \(backlog) bytes behind and was cut off; read reports as they come")
    }

    func stoppingLine(for connection: ServerConnection) -> [UInt8]? {
        endpoints[connection.listener].kind == .gpsd ? GPSDReply.error("locationd is stopping") : nil
    }

    func opened(_ connection: ServerConnection, loop: ServerLoop<ProgramConversation>, now: Double) {
        let peer = pendingPeer ?? ProgramPeer(credentials: connection.peer, groups: nil, pidKnown: false, name: nil)
        pendingPeer = nil
        programs[connection.id] = Program(endpoint: connection.listener, peer: peer)
        order.append(connection.id)
        changed = true
        switch endpoints[connection.listener].kind {
        case .gpsd:
            connection.output.enqueue(GPSDReply.version())
        case .nmea:
            beginWatch(connection)
        }
        publishIfChanged()
    }

    // MARK: Requests

    func dispatch(
        _ line: ServerConnection.Line, on connection: ServerConnection, loop: ServerLoop<ProgramConversation>, now: Double
    ) {
        guard var program = programs[connection.id], endpoints[program.endpoint].kind == .gpsd else { return }
        let endpoint = endpoints[program.endpoint]
        let command: GPSDCommand
        switch line {
        case .tooLong:
            loop.countMalformed()
            command = .unknown("Request too long (more than \(GPSDCommand.maximumLength) bytes)")
        case .request(let bytes):
            guard let parsed = GPSDCommand.parse(bytes) else { return }
            command = parsed
        }
        switch command {
        case .watch(let watch?) where watch.enable:
            connection.output.enqueue(GPSDReply.devices(client: endpoint.client, receivers: receivers[endpoint.client] ?? [], activated: started))
            connection.output.enqueue(GPSDReply.watch(watch))
            if !program.watching { beginWatch(connection) }
        case .watch(let watch?):
            connection.output.enqueue(GPSDReply.watch(watch))
            if program.watching { endWatch(connection) }
        case .watch(nil):
            connection.output.enqueue(GPSDReply.watch(GPSDWatch(enable: program.watching, json: program.watching)))
        case .poll:
            program = programs[connection.id] ?? program
            connection.output.enqueue(GPSDReply.poll(client: endpoint.client, last: program.last, sky: program.sky, time: SystemClock.utc()))
        case .version:
            connection.output.enqueue(GPSDReply.version())
        case .devices:
            connection.output.enqueue(GPSDReply.devices(client: endpoint.client, receivers: receivers[endpoint.client] ?? [], activated: started))
        case .device:
            connection.output.enqueue(GPSDReply.error("locationd serves fixes, not a receiver: ?DEVICE cannot configure anything here"))
        case .unknown(let message):
            loop.countMalformed()
            connection.output.enqueue(GPSDReply.error(message))
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
        var tell: (@Sendable (String) -> Void)?
        let output = connection.output
        switch endpoint.kind {
        case .gpsd:
            tell = { sentence in output.enqueue(GPSDReply.error(sentence)) }
        case .nmea:
            let name = endpoint.name
            tell = { sentence in Diagnostics.programs.notice("\(name): a program connected; \(sentence)") }
        }
        use.post(.began(endpoint, peer: program.peer.credentials, first: first, tell: tell))
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
        use.post(.ended(endpoint, peer: program.peer.credentials, last: last))
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
            var tpv: [Int: [UInt8]] = [:]
            var nmea: [Int: [UInt8]] = [:]
            for connection in loop.openConnections {
                guard var program = programs[connection.id], program.watching else { continue }
                let endpoint = endpoints[program.endpoint]
                for (index, record) in records.enumerated() where record.client == endpoint.client {
                    let bytes: [UInt8]
                    switch endpoint.kind {
                    case .gpsd:
                        // A receiver new to this client is announced first, as gpsd announces one it adds.
                        bytes = tpv[index] ?? ((notices[index] ?? []) + GPSDReply.tpv(record))
                        tpv[index] = bytes
                    case .nmea:
                        bytes = nmea[index] ?? NMEAEncoder.sentences(record)
                        nmea[index] = bytes
                    }
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

    /// A `SKY` to each watching gpsd-protocol program of the clients the engine let see it
    /// (docs/protocol.md, "SKY"); NMEA sockets get none.
    private func sendSkies(_ skies: [String: SkyView], _ loop: ServerLoop<ProgramConversation>) {
        var lines: [String: [UInt8]] = [:]
        for connection in loop.openConnections {
            guard var program = programs[connection.id], program.watching else { continue }
            let endpoint = endpoints[program.endpoint]
            guard endpoint.kind == .gpsd, let view = skies[endpoint.client], !(program.skySent && view == program.sky)
            else { continue }
            let line = lines[endpoint.client] ?? GPSDReply.sky(view, client: endpoint.client)
            lines[endpoint.client] = line
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
        Diagnostics.programs.info("\(endpoint.name): cut off \(program.peer.name ?? "a program") (\(program.peer.credentials)): it fell too far behind")
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
