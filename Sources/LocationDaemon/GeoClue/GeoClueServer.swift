#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationSystem
import Synchronization
import LocationConfig
import LocationProtocol
import LocationValues

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
final class GeoClueServer: @unchecked Sendable {
    // @unchecked Sendable: the bus, the objects and the maps below are touched only by the bus
    // thread once `start()` has started it (before that, only by `init` on the caller's thread);
    // what other threads reach is the mailbox and the `Wakeup` (both thread-safe), `stopping`
    // (an atomic) and `thread` (a Mutex).

    /// Why the face could not start.
    struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for the journal.
        var description: String
    }

    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let clientPrefix = "/org/freedesktop/GeoClue2/Client/"
    /// Client objects one connection may hold at once.
    static let maximumClientsPerConnection = 64

    let core: DaemonCore
    let settings: GeoClueSettings
    let apps: GeoClueApps
    let mailbox: GeoClueMailbox
    let wakeup: Wakeup
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<DaemonThread.Handle?>(nil)

    var bus: OpaquePointer?
    let manager: UnsafeMutablePointer<cbus_manager_props>
    var clients: [String: GeoClueClient] = [:]
    var locations: [String: GeoClueLocation] = [:]
    /// The client `GetClient` gave each connection.
    var given: [String: String] = [:]
    var nextClient = 1
    /// Client objects just started, and the position of the running reduced interval each gets
    /// at once, signalled after the `Start` reply (`answerAtOnce`).
    var atOnce: [(client: GeoClueClient, delivery: Delivery)] = []

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
            let face = Unmanaged<GeoClueServer>.fromOpaque(context!).takeUnretainedValue()
            return face.method(
                UInt32(bitPattern: method), path: path.map { String(cString: $0) } ?? "",
                argument: argument.map { String(cString: $0) }, call: call, error: error)
        }
        handlers.find = { context, kind, path, sender, error in
            let face = Unmanaged<GeoClueServer>.fromOpaque(context!).takeUnretainedValue()
            return face.find(
                UInt32(bitPattern: kind), path: path.map { String(cString: $0) } ?? "",
                sender: sender.map { String(cString: $0) }, error: error)
        }
        handlers.name_gone = { context, name in
            guard let name else { return }
            Unmanaged<GeoClueServer>.fromOpaque(context!).takeUnretainedValue().gone(String(cString: name))
        }
        handlers.check_string = { _, _, value, length, error in
            GeoClueServer.checkDesktopId(value, length: length, error: error)
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