#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationProtocol
import LocationSystem
import Synchronization

/// Publishes one client's log to its MQTT broker as OwnTracks JSON, on a
/// thread of its own: never in the fix path (the log writer does not know it
/// exists), so a slow or absent broker delays nothing but itself.
///
/// Store and forward. The log is the queue: the publisher reads it from the
/// client's `PublishCursor` (`state_dir/mqtt-NAME.cursor`) through a
/// `LogQueue`, keeps up to `window` records in flight, and moves the cursor
/// only over records the broker acknowledged (QoS 1 PUBACK, QoS 2 PUBCOMP;
/// with QoS 0, once written to the socket), in log order. The cursor is saved
/// at most once a second while records flow and at once when the queue is
/// empty, and at shutdown. A lost connection sends everything after the
/// cursor again on the next one, so delivery is at least once: after a crash
/// the broker may see up to a second's worth of records twice, never none.
///
/// New data. The publisher looks at the log every `pollInterval` (one
/// `pread`; the log writer is not involved), and libmosquitto's loop waits
/// that long for the socket, so a record is published within about 0.2 s of
/// being logged.
///
/// Reconnecting: capped exponential backoff (1 s doubling to 30 s, reset
/// after a session of 30 s), the password file read again on every attempt.
final class MQTTPublisher: Sendable {
    /// The client.
    let client: String
    /// Where and how.
    let settings: MQTTSettings
    /// The client's log.
    let logPath: String
    /// The cursor file.
    let cursorPath: String
    /// Where positions the broker acknowledged are counted (the access report).
    let report: AccessLedger?

    /// Records in flight at once.
    static let window = 20
    /// How often the log is looked at and libmosquitto's loop returns, seconds.
    static let pollInterval = 0.2
    /// Seconds a connection may take before it counts as unreachable.
    static let connectTimeout = 15.0
    /// MQTT keepalive, seconds: a silent broker is noticed within about 1.5 × this.
    static let keepalive: Int32 = 30
    /// The backoff between attempts.
    static let backoff = ReconnectBackoff.Policy(initial: 1, multiplier: 2, cap: 30, stableAfter: 30)

    private let shared: Mutex<Shared>
    private let onChange: @Sendable (BrokerStatus) -> Void

    private struct Shared {
        var status: BrokerStatus
        var started = false
        var stopping = false
        var finished = false
    }

    /// A publisher for `client`'s log; `onChange` hears every change of state
    /// (from the publisher's thread).
    init(
        client: String, settings: MQTTSettings, logPath: String, stateDirectory: String,
        onChange: @escaping @Sendable (BrokerStatus) -> Void, report: AccessLedger? = nil
    ) {
        self.report = report
        self.client = client
        self.settings = settings
        self.logPath = logPath
        cursorPath = DaemonConfig.join(stateDirectory, PublishCursor.fileName(client: client))
        self.onChange = onChange
        shared = Mutex(Shared(status: BrokerStatus(
            client: client, broker: "\(settings.scheme)://\(settings.broker)", topic: settings.topic,
            state: .connecting, detail: "starting")))
    }

    /// Where publishing stands now.
    var status: BrokerStatus { shared.withLock { $0.status } }

    /// Whether the thread has ended (after `stop`).
    var isFinished: Bool { shared.withLock { $0.finished || !$0.started } }

    /// Starts the thread.
    func start() throws(SystemError) {
        shared.withLock { $0.started = true }
        do {
            try startThread()
        } catch {
            shared.withLock { $0.started = false }
            throw error
        }
    }

    private func startThread() throws(SystemError) {
        try DaemonThread.start(name: "mqtt-" + String(client.prefix(10))) { [self] in
            var loop = PublisherLoop(publisher: self)
            loop.run()
            shared.withLock { $0.finished = true }
        }
    }

    /// Asks the thread to end: it waits briefly for records in flight, says
    /// goodbye to the broker and saves the cursor. Returns at once; see `isFinished`.
    func stop() {
        shared.withLock { $0.stopping = true }
    }

    fileprivate var stopping: Bool { shared.withLock { $0.stopping } }

    fileprivate func update(_ change: (inout BrokerStatus) -> Void) {
        let (changed, now) = shared.withLock { shared -> (Bool, BrokerStatus) in
            let before = shared.status
            change(&shared.status)
            return (before.state != shared.status.state || before.detail != shared.status.detail, shared.status)
        }
        if changed && now.state != .connecting { onChange(now) }
    }
}

/// The publisher's thread: everything here is touched only by it.
private struct PublisherLoop {
    struct InFlight {
        var mid: Int32?
        var identity: FileIdentity
        var head: UInt64
        var end: UInt64
        var acked: Bool
        var accuracy: DeliveredAccuracy = .full
    }

    let publisher: MQTTPublisher
    let settings: MQTTSettings
    let queue: LogQueue
    let store: PublishCursorStore
    var cursor: PublishCursor?
    var cursorDirty = false
    var lastSave = 0.0
    var saveFailed = false
    var inFlight: [InFlight] = []
    var connection: MQTTConnection?
    var up = false
    var attemptStarted = 0.0
    var sessionStarted = 0.0
    var nextAttempt = 0.0
    var backoff = ReconnectBackoff(policy: MQTTPublisher.backoff)
    var published = 0
    var skipped = 0
    var lastPublish: Double?

    init(publisher: MQTTPublisher) {
        self.publisher = publisher
        settings = publisher.settings
        queue = LogQueue(path: publisher.logPath)
        store = PublishCursorStore(path: publisher.cursorPath)
    }

    mutating func run() {
        switch store.load() {
        case .missing: cursor = nil
        case .cursor(let saved): cursor = saved
        case .unreadable(let why):
            Diagnostics.mqtt.warning("\(publisher.client): MQTT cursor: \(why); publishing \(publisher.logPath) from its start")
        }
        for note in queue.start(at: cursor) { Diagnostics.mqtt.warning("\(publisher.client): \(note)") }
        while !publisher.stopping {
            let now = SystemClock.monotonic()
            if connection == nil {
                if now >= nextAttempt {
                    attempt(now: now)
                } else {
                    refreshStatus()
                    sleep(min(nextAttempt - now, MQTTPublisher.pollInterval))
                }
                continue
            }
            turn(now: now)
            saveCursorIfDue(now: now, force: false)
            refreshStatus()
        }
        finish()
    }

    // MARK: - Connecting

    private mutating func attempt(now: Double) {
        publisher.update { $0.state = .connecting; $0.detail = "connecting" }
        attemptStarted = now
        do throws(MQTTFailure) {
            let password = try readPassword()
            let will = OwnTracksMessage.lastWill(connectedAt: SystemClock.utc())
            let made = try MQTTConnection(settings: settings, password: password, will: will)
            try made.connect(keepalive: MQTTPublisher.keepalive)
            connection = made
            up = false
        } catch {
            ended(error, now: now)
        }
    }

    /// The first line of `mqtt_password_file`, refused when every user may read it.
    private mutating func readPassword() throws(MQTTFailure) -> String? {
        guard let path = settings.passwordFile else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else {
            throw MQTTFailure(state: .misconfigured, detail: "cannot read mqtt_password_file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw MQTTFailure(state: .misconfigured, detail: "mqtt_password_file \(path) is not a regular file")
        }
        guard info.st_mode & 0o007 == 0 else {
            throw MQTTFailure(
                state: .misconfigured,
                detail: "mqtt_password_file \(path) is readable by every user: make it readable only by locationd "
                    + "(chmod 0600, owned by the daemon's user, or 0640 root:locationd)")
        }
        guard let bytes = try? DescriptorIO.readAll(fd, limit: 4096, name: path) else {
            throw MQTTFailure(state: .misconfigured, detail: "cannot read mqtt_password_file \(path) (or it is over 4 KiB)")
        }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        return String(decoding: line, as: UTF8.self)
    }

    // MARK: - A connected turn

    private mutating func turn(now: Double) {
        guard let connection else { return }
        do throws(MQTTFailure) {
            if up { try fillWindow(connection) }
            try connection.loop(milliseconds: Int32(MQTTPublisher.pollInterval * 1000))
            if !up, connection.connack == 0 {
                up = true
                sessionStarted = now
                publisher.update { $0.state = .connected; $0.detail = "connected" }
                Diagnostics.mqtt.notice("\(publisher.client): connected to MQTT broker \(settings.scheme)://\(settings.broker)")
                try fillWindow(connection)
            }
            connection.takeAcks { acknowledged($0) }
            if !up && now - attemptStarted > MQTTPublisher.connectTimeout {
                throw MQTTFailure(state: .unreachable, detail: "no answer within \(Int(MQTTPublisher.connectTimeout)) s")
            }
        } catch {
            connection.takeAcks { acknowledged($0) }
            ended(error, now: now)
        }
    }

    private mutating func fillWindow(_ connection: MQTTConnection) throws(MQTTFailure) {
        while inFlight.count < MQTTPublisher.window, let record = queue.next() {
            let parsed = try? LogRecord.parse(record.line)
            guard let parsed else {
                skipped += 1
                if skipped == 1 {
                    Diagnostics.mqtt.warning(
                        "\(publisher.client): a line of \(publisher.logPath) is no log record; it is skipped (not published)")
                }
                inFlight.append(InFlight(mid: nil, identity: record.identity, head: record.head, end: record.end, acked: true))
                continue
            }
            let payload = OwnTracksMessage.location(parsed, trackerID: settings.trackerID, createdAt: SystemClock.utc())
            let mid = try connection.publish(payload, topic: settings.topic, qos: settings.qos)
            inFlight.append(
                InFlight(mid: mid, identity: record.identity, head: record.head, end: record.end, acked: false, accuracy: parsed.accuracy))
        }
        advanceCursor()
    }

    private mutating func acknowledged(_ mid: Int32) {
        guard let index = inFlight.firstIndex(where: { $0.mid == mid && !$0.acked }) else { return }
        inFlight[index].acked = true
        published += 1
        publisher.report?.count(publisher.client, sink: .mqtt, accuracy: inFlight[index].accuracy, time: SystemClock.utc())
        lastPublish = SystemClock.utc()
        advanceCursor()
    }

    /// Moves the cursor over the acknowledged records at the front, in log order.
    private mutating func advanceCursor() {
        var moved: InFlight?
        while let first = inFlight.first, first.acked {
            moved = inFlight.removeFirst()
        }
        guard let moved else { return }
        cursor = PublishCursor(log: publisher.logPath, identity: moved.identity, head: moved.head, offset: moved.end)
        cursorDirty = true
        queue.release(before: moved.identity)
    }

    // MARK: - Ending

    private mutating func ended(_ failure: MQTTFailure, now: Double) {
        let wasUp = up
        connection = nil
        up = false
        if !inFlight.isEmpty {
            inFlight.removeAll()
            queue.rewind(to: cursor)
        }
        if wasUp { backoff.sessionEnded(after: now - sessionStarted) }
        let delay = backoff.nextDelay()
        nextAttempt = now + delay
        let detail = wasUp ? "connection lost: \(failure.detail)" : failure.detail
        publisher.update { $0.state = failure.state; $0.detail = detail }
        let level: Diagnostics.Level = wasUp || publisher.status.published == 0 ? .warning : .info
        Diagnostics.mqtt.log(
            level,
            "\(publisher.client): MQTT broker \(settings.scheme)://\(settings.broker): \(detail); trying again in \(Int(delay.rounded())) s")
        saveCursorIfDue(now: now, force: true)
    }

    private mutating func finish() {
        if let connection, up {
            // A moment for the acknowledgements of what is in flight.
            let deadline = SystemClock.monotonic() + 1
            while !inFlight.isEmpty && SystemClock.monotonic() < deadline {
                do {
                    try connection.loop(milliseconds: 50)
                } catch {
                    break
                }
                connection.takeAcks { acknowledged($0) }
            }
            connection.disconnect()
        }
        connection = nil
        saveCursorIfDue(now: SystemClock.monotonic(), force: true)
        refreshStatus()
    }

    // MARK: - Cursor and status

    private mutating func saveCursorIfDue(now: Double, force: Bool) {
        guard cursorDirty, let cursor else { return }
        guard force || inFlight.isEmpty || now - lastSave >= 1 else { return }
        do {
            try store.save(cursor)
            cursorDirty = false
            lastSave = now
            if saveFailed {
                saveFailed = false
                Diagnostics.mqtt.notice("\(publisher.client): the MQTT cursor \(store.path) is saved again")
            }
        } catch {
            lastSave = now  // try again in a second, not every turn
            if !saveFailed {
                saveFailed = true
                Diagnostics.mqtt.error(
                    "\(publisher.client): cannot save the MQTT cursor \(store.path): \(error); after a restart records already "
                        + "published may be sent again")
            }
        }
    }

    private func refreshStatus() {
        let backlog = inFlight.filter { !$0.acked }.count + queue.unread()
        let (published, skipped, lastPublish, lost) = (self.published, self.skipped + queue.oversized, self.lastPublish, queue.lostFiles)
        publisher.update {
            $0.backlog = backlog
            $0.published = published
            $0.skipped = skipped
            $0.lastPublish = lastPublish
            $0.lostFiles = lost
        }
    }

    private func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        _ = poll(nil, 0, Int32((seconds * 1000).rounded(.up)))
    }
}
