#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationConfig
import LocationCore
import LocationProtocol
import LocationValues
import LocationSystem
import Synchronization

/// The GeoClue2-compatible face (docs/geoclue.md): owns `org.freedesktop.GeoClue2`
/// on a bus and answers GeoClue's Manager, Client and Location objects through
/// CBus (sd-bus), on one thread of its own (`geoclue`), which polls the bus's
/// descriptor and a `Wakeup`.
///
/// * A bus client is the app side of an engine client: `Start` makes the
///   client object a holder of it (`ClientHolder`, face `geoclue`) in the core's
///   one registry (and sends `request while-using` while its status is `ask`);
///   `Stop`, `DeleteClient` and the connection leaving the bus let go. The first
///   holder of any face begins the session and starts the updates, the last of
///   every face ends them, never what the configuration keeps on — the engine's
///   ordinary commands, sent as the client's app (`AppSide`: never the
///   operator), so the audit log, watchers and the report see them as any other.
/// * What a client object asks (`RequestedAccuracyLevel`, `DistanceThreshold`,
///   `TimeThreshold`) narrows its own signals here, never the engine client's
///   settings: the log and the program sockets keep their own.
/// * Deliveries come through the `GeoClueMailbox`; each becomes a new Location
///   object and a `LocationUpdated`, addressed to the client's connection alone.
/// * A client or location is another connection's: every call, Get, GetAll and
///   Set on it is refused (`find`).
final class GeoClueFace: @unchecked Sendable {
    // @unchecked Sendable: the bus, the objects and the maps below are touched only by the bus
    // thread once `start()` has started it (before that, only by `init` on the caller's thread);
    // what other threads reach is the mailbox and the `Wakeup` (both thread-safe), `stopping`
    // (an atomic) and `thread` (a Mutex).

    /// Why the face could not start.
    struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for the journal.
        var description: String
    }

    private static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    private static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    private static let clientPrefix = "/org/freedesktop/GeoClue2/Client/"
    /// Client objects one connection may hold at once.
    static let maximumClientsPerConnection = 64

    private let core: DaemonCore
    private let settings: GeoClueSettings
    let apps: GeoClueApps
    let mailbox: GeoClueMailbox
    private let wakeup: Wakeup
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<DaemonThread.Handle?>(nil)

    private var bus: OpaquePointer?
    private let manager: UnsafeMutablePointer<cbus_manager_props>
    private var clients: [String: GeoClueClient] = [:]
    private var locations: [String: GeoClueLocation] = [:]
    /// The client `GetClient` gave each connection.
    private var given: [String: String] = [:]
    private var nextClient = 1
    /// Client objects just started, and the position of the running reduced interval each gets
    /// at once, signalled after the `Start` reply (`answerAtOnce`).
    private var atOnce: [(client: GeoClueClient, delivery: Delivery)] = []

    /// Connects to the bus `settings` name and takes `org.freedesktop.GeoClue2` there.
    init(settings: GeoClueSettings, core: DaemonCore, apps: GeoClueApps, mailbox: GeoClueMailbox) throws(StartError) {
        self.settings = settings
        self.core = core
        self.apps = apps
        self.mailbox = mailbox
        do {
            wakeup = try Wakeup()
        } catch {
            throw StartError(description: "GeoClue face: \(error)")
        }
        manager = .allocate(capacity: 1)
        manager.initialize(to: cbus_manager_props(in_use: 0, available_accuracy_level: GeoClueLevel.none))
        var handlers = cbus_handlers()
        handlers.context = Unmanaged.passUnretained(self).toOpaque()
        handlers.method = { context, method, path, argument, call, error in
            let face = Unmanaged<GeoClueFace>.fromOpaque(context!).takeUnretainedValue()
            return face.method(
                UInt32(bitPattern: method), path: path.map { String(cString: $0) } ?? "",
                argument: argument.map { String(cString: $0) }, call: call, error: error)
        }
        handlers.find = { context, kind, path, sender, error in
            let face = Unmanaged<GeoClueFace>.fromOpaque(context!).takeUnretainedValue()
            return face.find(
                UInt32(bitPattern: kind), path: path.map { String(cString: $0) } ?? "",
                sender: sender.map { String(cString: $0) }, error: error)
        }
        handlers.name_gone = { context, name in
            guard let name else { return }
            Unmanaged<GeoClueFace>.fromOpaque(context!).takeUnretainedValue().gone(String(cString: name))
        }
        handlers.check_string = { _, _, value, length, error in
            GeoClueFace.checkDesktopId(value, length: length, error: error)
        }
        var opened: OpaquePointer?
        let address: String? =
            switch settings.bus {
            case .system: nil
            case .address(let address): address
            }
        var failure = cbus_open_failure()
        let r = cbus_open(address, &handlers, manager, &opened, &failure)
        guard r >= 0, let opened else {
            // No deallocation here: every stored property is set, so the failed init runs deinit,
            // which frees `manager` (freeing it here too was issue #47's double free).
            throw StartError.notServed(r, failure, address: address)
        }
        bus = opened
        Diagnostics.geoclue.notice("serving org.freedesktop.GeoClue2 on \(address ?? "the system bus")")
    }

    deinit {
        manager.deallocate()
    }

    // MARK: - The thread

    /// Serves on a thread of its own (`geoclue`).
    func start() throws(SystemError) {
        let body: @Sendable () -> Void = { [self] in run() }
        try thread.withLock { handle throws(SystemError) in
            guard handle == nil else { return }
            handle = try DaemonThread.start(name: "geoclue", detached: false, body)
        }
    }

    /// Ends every started client's session, leaves the bus and waits for the thread.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wakeup.signal()
        let handle = thread.withLock { handle in
            defer { handle = nil }
            return handle
        }
        if let handle, !handle.isCurrent { handle.join() }
    }

    private func run() {
        mailbox.attach(wakeup)
        publishStatus()
        setAvailable(core.statusReport().status.source)
        while !stopping.load(ordering: .acquiring), let bus {
            let r = cbus_process(bus)
            if r < 0 {
                Diagnostics.geoclue.error("lost the bus (\(SystemError("sd-bus", errno: -r))); GeoClue apps get no positions until locationd restarts")
                break
            }
            answerAtOnce()
            carry(mailbox.take())
            let pruneIn = prune(now: SystemClock.monotonic())
            var fd: Int32 = -1
            var events: Int16 = 0
            var timeout: Int32 = -1
            guard cbus_wait_params(bus, &fd, &events, &timeout) >= 0 else { break }
            if let pruneIn {
                let ms = Int32(min(60_000, max(1, (pruneIn * 1000).rounded(.up))))
                timeout = timeout < 0 ? ms : min(timeout, ms)
            }
            var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, timeout)
            if fds[1].revents != 0 { wakeup.reset() }
        }
        for client in clients.values where client.started { stop(client) }
        mailbox.attach(nil)
        mailbox.publish(GeoClueSection(bus: settings.bus.description, connected: false))
        clients.removeAll()
        locations.removeAll()
        given.removeAll()
        if let bus { cbus_close(bus) }
        bus = nil
    }

    // MARK: - Calls

    private func method(_ method: UInt32, path: String, argument: String?, call: OpaquePointer?, error: OpaquePointer?) -> Int32 {
        let sender = cbus_sender(call).map { String(cString: $0) } ?? ""
        switch method {
        case CBUS_GET_CLIENT.rawValue:
            if let path = given[sender], clients[path] != nil { return cbus_reply_object(call, path) }
            guard let client = makeClient(for: sender, error: error) else { return -EUSERS }
            given[sender] = client.path
            return cbus_reply_object(call, client.path)
        case CBUS_CREATE_CLIENT.rawValue:
            guard let client = makeClient(for: sender, error: error) else { return -EUSERS }
            return cbus_reply_object(call, client.path)
        case CBUS_DELETE_CLIENT.rawValue:
            guard let argument, let client = clients[argument] else {
                return cbus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "no such client: \(argument ?? "")")
            }
            guard client.owner == sender else {
                return cbus_error_set(error, Self.accessDenied, "\(argument) belongs to another connection")
            }
            remove(client, "its app deleted its client (DeleteClient)")
            return cbus_reply_empty(call)
        case CBUS_ADD_AGENT.rawValue:
            // No GUI agent answers here: the person answers with locationctl (docs/geoclue.md).
            Diagnostics.geoclue.info("\(sender) registered the agent \(PeerText.escaped(argument ?? "?", limit: 255)); not used: prompts are answered with \(CommandWord.answer.commandLine())")
            return cbus_reply_empty(call)
        case CBUS_START.rawValue:
            guard let client = clients[path] else { return -ENOENT }
            return start(client, call: call, error: error)
        case CBUS_STOP.rawValue:
            guard let client = clients[path] else { return -ENOENT }
            // One portal session closed: the others go on.
            if client.isPortal, client.starts > 1 {
                client.starts -= 1
                return cbus_reply_empty(call)
            }
            stop(client)
            withdrawPrompt(of: client, "its app stopped (Stop)")
            return cbus_reply_empty(call)
        default:
            return -EOPNOTSUPP
        }
    }

    private func find(_ kind: UInt32, path: String, sender: String?, error: OpaquePointer?) -> UnsafeMutableRawPointer? {
        let found: (owner: String, props: UnsafeMutableRawPointer)? =
            switch kind {
            case CBUS_CLIENT.rawValue: clients[path].map { ($0.owner, UnsafeMutableRawPointer($0.props)) }
            case CBUS_LOCATION.rawValue: locations[path].map { ($0.owner, UnsafeMutableRawPointer($0.props)) }
            default: nil
            }
        guard let found else { return nil }
        guard let sender, sender == found.owner else {
            _ = cbus_error_set(error, Self.accessDenied, "\(path) belongs to another connection; make a client of your own with GetClient")
            return nil
        }
        return found.props
    }

    private func makeClient(for sender: String, error: OpaquePointer?) -> GeoClueClient? {
        guard clients.values.count(where: { $0.owner == sender }) < Self.maximumClientsPerConnection else {
            _ = cbus_error_set(
                error, "org.freedesktop.DBus.Error.LimitsExceeded",
                "this connection holds \(Self.maximumClientsPerConnection) clients already; delete one with DeleteClient")
            return nil
        }
        let client = GeoClueClient(path: Self.clientPrefix + "\(nextClient)", owner: sender)
        nextClient += 1
        clients[client.path] = client
        return client
    }

    /// `Start`: who the peer is, which engine client it is, then the app side's commands.
    private func start(_ client: GeoClueClient, call: OpaquePointer?, error: OpaquePointer?) -> Int32 {
        if client.started {
            if client.isPortal { startAnotherPortalSession(client) }
            return cbus_reply_empty(call)
        }
        guard let bus else { return -ENOTCONN }
        // Who the peer is (what the bus vouches for, its process pinned), then which app: its Flatpak id, else its DesktopId.
        let resolved = GeoCluePeer.resolve(busName: client.owner, on: bus).flatMap { found in
            found.desktopId(claimed: client.desktopId).map { (found, $0) }
        }
        let (peer, desktopId): (GeoCluePeer, String)
        switch resolved {
        case .success(let found): (peer, desktopId) = found
        case .failure(let why):
            Diagnostics.geoclue.notice("refused Start of \(client.path): locationd cannot vouch for who \(client.owner) is: \(why)")
            return cbus_error_set(error, Self.accessDenied, "locationd cannot vouch for who this connection is: \(why)")
        }
        guard !desktopId.isEmpty else {
            return cbus_error_set(
                error, Self.accessDenied, "set the DesktopId property (the app's .desktop file name without .desktop) before Start")
        }
        guard DesktopId.isValid(desktopId) else {
            return cbus_error_set(error, Self.invalidArgs, "DesktopId \(PeerText.escaped(desktopId, limit: 64)) is refused: \(DesktopId.rule)")
        }
        let name: String
        switch engineClient(desktopId: desktopId, peer: peer) {
        case .success(let found): name = found
        case .failure(let refusal): return cbus_error_set(error, Self.accessDenied, refusal.description)
        }
        let distance = client.props.pointee.distance_threshold
        client.reduced = GeoClueLevel.wantsReduced(client.props.pointee.requested_accuracy_level)
        client.distanceFilter = distance > 0 ? GeodesicThreshold(meters: Double(distance)) : nil
        client.lastPoint = nil
        client.lastSignal = nil
        client.peer = peer
        client.engineClient = name
        client.started = true
        client.starts = 1
        // Status names the app and its peer before the engine hears of it, so whoever sees the
        // prompt (or the start) it opens finds the app in `status` too.
        publishStatus()
        app(of: name, peer).hold(by: holder(client), synchronouslyTo: core)
        mailbox.setWatched(name, true)
        guard let (status, services, reducedClient) = authorization(of: name) else {
            stop(client)
            return cbus_error_set(error, Self.accessDenied, "\(name) is not a client of locationd any more")
        }
        switch status {
        case .ask:
            // The prompt opens; the person answers with locationctl, positions come with the grant.
            let asked = command(.request(client: name, kind: .whileUsing), as: peer, client: name)
            if let (_, message) = asked.error {
                // No prompt can open (a configured client without `usage`): the app is told, not left waiting.
                stop(client)
                return cbus_error_set(error, Self.accessDenied, "\(name) cannot ask for location: \(message)")
            }
            Diagnostics.geoclue.notice(
                "\(desktopId) (\(peer.credentials), \(peer.busName)) asks for location as \(name); answer with: \(CommandWord.answer.commandLine(name, "…"))")
        case .always where services, .whileUsing where services:
            Diagnostics.geoclue.info("\(desktopId) (\(peer.credentials), \(peer.busName)) started \(name)")
        default:
            stop(client)
            let why =
                services
                ? "\(name) is not allowed location (\(status)); the person can allow it with: \(Command.authorize(client: name, status: .whileUsing).commandLine)"
                : "Location Services are off; the person can turn them on with: \(Command.services(on: true).commandLine)"
            return cbus_error_set(error, Self.accessDenied, why)
        }
        setActive(client, true)
        updateInUse()
        // Reduced, the interval's position is given again at once, rather than nothing until
        // the next interval: nothing new is disclosed, and the app does not wait (docs/geoclue.md).
        if client.reduced || reducedClient, let again = core.reducedPosition(of: name, for: nil) {
            atOnce.append((client, Delivery(client: name, fix: again, accuracy: .reduced)))
        }
        return cbus_reply_empty(call)
    }

    /// A further `Start` on the portal's started object: one more session of a sandboxed app. The
    /// object is the coarsest level any of its open sessions asked (no app rides on another's finer
    /// level), and the new session gets its first position as a first `Start` does.
    private func startAnotherPortalSession(_ client: GeoClueClient) {
        client.starts += 1
        if GeoClueLevel.wantsReduced(client.props.pointee.requested_accuracy_level) { client.reduced = true }
        client.lastPoint = nil
        client.lastSignal = nil
        if client.reduced, let name = client.engineClient, let again = core.reducedPosition(of: name, for: nil) {
            atOnce.append((client, Delivery(client: name, fix: again, accuracy: .reduced)))
        }
    }

    /// Signals the positions `start` found for client objects just started, after their replies.
    private func answerAtOnce() {
        let due = atOnce
        atOnce.removeAll()
        for (client, delivery) in due where client.started && client.engineClient == delivery.client && client.lastPoint == nil {
            signal(delivery, to: client)
        }
    }

    /// `Stop`, `DeleteClient`, the connection gone, a grant taken away: the client object lets go
    /// of its engine client; the session ends when no holder of any face holds it (`ClientHolders`).
    private func stop(_ client: GeoClueClient) {
        guard client.started, let name = client.engineClient, let peer = client.peer else { return }
        client.started = false
        client.starts = 0
        if !clients.values.contains(where: { $0.started && $0.engineClient == name }) { mailbox.setWatched(name, false) }
        app(of: name, peer).release(by: holder(client), synchronouslyTo: core)
        setActive(client, false)
        updateInUse()
    }

    /// A client object as a holder of its engine client.
    private func holder(_ client: GeoClueClient) -> ClientHolder {
        ClientHolder(.geoclue, client.path, updates: true)
    }

    /// `DeleteClient` or the connection gone (`why`, for a prompt it withdraws).
    private func remove(_ client: GeoClueClient, _ why: String) {
        stop(client)
        withdrawPrompt(of: client, why)
        clients[client.path] = nil
        if given[client.owner] == client.path { given[client.owner] = nil }
        let prefix = client.path + "/"
        locations = locations.filter { !$0.key.hasPrefix(prefix) }
    }

    /// A connection left the bus: its clients' sessions end at once, and a prompt it left with no
    /// other holder is withdrawn.
    private func gone(_ name: String) {
        for client in clients.values where client.owner == name { remove(client, "its app left the bus") }
        given[name] = nil
    }

    /// After `client` stopped: when no holder of any face holds its engine client (`ClientHolders`),
    /// a prompt pending for it has nobody to tell the answer to and is withdrawn (the client stays `ask`).
    private func withdrawPrompt(of client: GeoClueClient, _ why: String) {
        guard let name = client.engineClient, core.holderCount(of: name) == 0 else { return }
        core.withdrawPrompt(of: name, reason: why)
    }

    /// A `DesktopId` about to be set, checked by the one rule (`DesktopId`) where it lies in the
    /// bus message: one longer than the rule allows is refused before anything copies it.
    private static func checkDesktopId(_ value: UnsafePointer<CChar>?, length: Int, error: OpaquePointer?) -> Int32 {
        // Empty is no id set (Start then says to set one).
        guard let value, length > 0 else { return 0 }
        guard DesktopId.fits(length: length) else {
            return cbus_error_set(error, invalidArgs, "DesktopId of \(length) bytes is refused: \(DesktopId.rule)")
        }
        let text = String(cString: value)
        guard DesktopId.isValid(text) else {
            return cbus_error_set(error, invalidArgs, "DesktopId \(PeerText.escaped(text)) is refused: \(DesktopId.rule)")
        }
        return 0
    }

    // MARK: - The engine

    /// Why an app cannot have a client.
    private struct Refusal: Error {
        var description: String
    }

    /// The engine client of `desktopId` run by `peer`: a configured `geoclue_id` whose app keys take
    /// the peer (or that has none), else the app's own client (made on its first `Start`).
    private func engineClient(desktopId: String, peer: GeoCluePeer) -> Result<String, Refusal> {
        let config = core.config
        let own = Set(apps.apps.map(\.name))
        for client in config.clients where client.geoclueId == desktopId && !own.contains(client.name) {
            guard let app = ProgramAllowList.app(client).0 else { return .success(client.name) }
            if app.matches(peer.principal) { return .success(client.name) }
        }
        switch apps.client(desktopId: desktopId, uid: peer.uid, configured: Set(config.clients.map(\.name)), undecided: undecided) {
        case .success(let (app, new)):
            if new {
                core.reapplyOverlay()
                Diagnostics.geoclue.notice("the GeoClue app \(desktopId) of uid \(peer.uid) is the client \(app.name) from now on")
            }
            return .success(app.name)
        case .failure(.denied):
            return .failure(
                Refusal(
                    description: "new GeoClue apps are refused here ([geoclue] new_apps = deny); the administrator can let \(desktopId) in "
                        + "with a [client.NAME] section holding geoclue_id = \(desktopId)"))
        case .failure(.tooMany(let count)):
            return .failure(
                Refusal(
                    description: "uid \(peer.uid) has \(count) GeoClue apps already ([geoclue] max_apps); "
                        + "the administrator can raise max_apps or name this app with geoclue_id = \(desktopId)"))
        case .failure(.full(let count)):
            return .failure(
                Refusal(
                    description: "locationd knows \(count) GeoClue apps already, the most it keeps; "
                        + "the administrator can name this app with geoclue_id = \(desktopId)"))
        case .failure(.unsaved(let error)):
            return .failure(Refusal(description: "locationd cannot keep its list of GeoClue apps (\(error)); try again later"))
        }
    }

    /// Whether the app of its own `app` never got a decision and may be forgotten to make room
    /// (`GeoClueApps.client`): still `ask`, no prompt pending, no holder of any face.
    private func undecided(_ app: GeoClueApps.App) -> Bool {
        guard core.holderCount(of: app.name) == 0 else { return false }
        guard let client = core.statusReport().status.clients.first(where: { $0.authorization.client == app.name }) else { return true }
        return client.authorization.stored == .ask && client.prompt == nil
    }

    /// `command` from the bus peer as the app of its client (`AppSide`), never as the operator.
    @discardableResult
    private func command(_ command: Command, as peer: GeoCluePeer, client name: String) -> ControlReply {
        app(of: name, peer).send(command, synchronouslyTo: core)
    }

    /// The bus peer as the app of its client (`AppSide`).
    private func app(of name: String, _ peer: GeoCluePeer) -> AppSide {
        AppSide(of: name, for: peer.credentials, journal: Diagnostics.geoclue)
    }

    /// The client's effective status, whether Location Services are on and whether the client's
    /// accuracy is reduced.
    private func authorization(of name: String) -> (AuthorizationStatus, Bool, Bool)? {
        let status = core.statusReport().status
        guard let client = status.clients.first(where: { $0.authorization.client == name }) else { return nil }
        return (client.authorization.status, status.services, !client.authorization.accuracy.isFull)
    }

    // MARK: - Deliveries and changes

    private func carry(_ taken: GeoClueMailbox.Taken) {
        if let source = taken.source { setAvailable(source) }
        for delivery in taken.deliveries {
            for client in clients.values where client.started && client.engineClient == delivery.client {
                signal(delivery, to: client)
            }
        }
        for name in taken.regranted { regranted(name) }
    }

    /// A new Location object and `LocationUpdated`, to the client's connection only. What the
    /// client object asked narrows its own signals here, never the engine client's deliveries: a
    /// level up to NEIGHBORHOOD gets the engine client's own reduced position (`reducedPosition`:
    /// one secret per client, the same position within its interval, given once), and
    /// `DistanceThreshold` and `TimeThreshold` hold back what is too near or too soon after the
    /// last signal — never the first position after `Start`.
    private func signal(_ delivery: Delivery, to client: GeoClueClient) {
        guard let bus else { return }
        let now = SystemClock.monotonic()
        let threshold = Double(client.props.pointee.time_threshold)
        if threshold > 0, let last = client.lastSignal, now - last < threshold { return }
        var delivery = delivery
        if client.reduced, delivery.accuracy == .full {
            guard let reduced = core.reducedPosition(of: delivery.client, for: delivery.fix) else { return }
            delivery = Delivery(client: delivery.client, fix: reduced, accuracy: .reduced)
        }
        let point = EarthPoint(latitude: delivery.fix.latitude, longitude: delivery.fix.longitude)
        if let last = client.lastPoint {
            // The interval's reduced position again tells the app nothing new.
            if delivery.accuracy == .reduced, last.latitude == point.latitude, last.longitude == point.longitude { return }
            if let filter = client.distanceFilter, !filter.isReached(from: last, to: point) { return }
        }
        // The grid only names a reduced position's cell (Description).
        let grid = delivery.accuracy == .reduced ? core.config.clients.first { $0.name == delivery.client }?.reducedGrid : nil
        let location = GeoClueLocation(
            path: client.nextLocationPath(), owner: client.owner, delivery: delivery, grid: grid, now: SystemClock.utc())
        locations[location.path] = location
        let old = client.current ?? "/"
        if let current = client.current { locations[current]?.replacedAt = now }
        client.current = location.path
        _ = cbus_set_string(&client.props.pointee.location, location.path)
        _ = cbus_client_changed(bus, client.owner, client.path, client.props, CBUS_PROP_LOCATION.rawValue)
        let r = cbus_location_updated(bus, client.owner, client.path, old, location.path)
        client.lastSignal = now
        client.lastPoint = point
        guard r >= 0 else {
            Diagnostics.geoclue.warning("\(client.path): LocationUpdated not sent (\(SystemError("sd-bus", errno: -r)))")
            return
        }
        mailbox.count(delivery, peer: client.peer?.accessPeer, time: SystemClock.utc())
    }

    /// `name`'s grant changed: if it no longer lets positions through, its bus clients stop and say
    /// so (`Active` false); a grant given back lets a new `Start` succeed.
    private func regranted(_ name: String) {
        guard let (status, services, _) = authorization(of: name) else { return }
        let allowed = services && (status == .always || status == .whileUsing)
        guard !allowed, status != .ask else { return }
        for client in clients.values where client.started && client.engineClient == name {
            Diagnostics.geoclue.notice("\(client.path) (\(name)) is no longer allowed location: Active is false")
            stop(client)
        }
    }

    private func setActive(_ client: GeoClueClient, _ active: Bool) {
        guard let bus, (client.props.pointee.active != 0) != active else { return }
        client.props.pointee.active = active ? 1 : 0
        _ = cbus_client_changed(bus, client.owner, client.path, client.props, CBUS_PROP_ACTIVE.rawValue)
    }

    private func updateInUse() {
        publishStatus()
        let inUse: Int32 = clients.values.contains(where: \.started) ? 1 : 0
        guard let bus, manager.pointee.in_use != inUse else { return }
        manager.pointee.in_use = inUse
        _ = cbus_manager_changed(bus)
    }

    /// What `status` shows: the bus, and every client GeoClue apps use with the peers holding it.
    private func publishStatus() {
        var section = GeoClueSection(bus: settings.bus.description, connected: bus != nil)
        let own = Dictionary(apps.apps.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for client in core.config.clients {
            guard let desktopId = client.geoclueId else { continue }
            let peers = clients.values.filter { $0.started && $0.engineClient == client.name }.compactMap(\.peer).map {
                GeoClueSection.Peer(busName: $0.busName, pid: $0.pid, uid: $0.uid, unit: $0.unit)
            }
            section.clients[client.name] = GeoClueSection.Client(desktopId: desktopId, uid: own[client.name]?.uid, peers: peers)
        }
        mailbox.publish(section)
    }

    /// EXACT while the source has a fix, NONE otherwise.
    private func setAvailable(_ source: SourceState) {
        let level = source == .fix ? GeoClueLevel.exact : GeoClueLevel.none
        guard manager.pointee.available_accuracy_level != level else { return }
        manager.pointee.available_accuracy_level = level
        if let bus { _ = cbus_manager_changed(bus) }
    }

    /// Drops locations replaced more than 10 s ago; returns the seconds until the next is due.
    private func prune(now: Double) -> Double? {
        var next: Double?
        for (path, location) in locations {
            guard let replaced = location.replacedAt else { continue }
            let due = replaced + GeoClueLocation.keptAfterReplaced - now
            if due <= 0 {
                locations[path] = nil
            } else {
                next = min(next ?? due, due)
            }
        }
        return next
    }
}
