#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
@testable import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The systemd service against a real datagram socket standing in for `$NOTIFY_SOCKET`.
@Suite(.timeLimit(.minutes(10))) struct NotifierServiceTests {
    /// A running service whose notifications reach a real datagram socket,
    /// with WATCHDOG_USEC 0.2 s (a ping every 0.1 s).
    struct Watched {
        let dir: ScratchDirectory
        let listener: DatagramListener
        let core: DaemonCore
        let service: NotifierService
        let running: Task<Void, any Error>

        init() throws {
            dir = try ScratchDirectory("notify")
            listener = try DatagramListener(address: dir.file("notify"))
            core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
            let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"])
            let service = NotifierService(notifier: notifier, core: core)
            self.service = service
            running = Task { try await service.run() }
        }
    }

    @Test func sendsReadyThenStatusChangesWatchdogPingsAndStopping() async throws {
        let watched = try Watched()
        let listener = watched.listener
        // A loaded machine may take a while to run the task: the bound is generous.
        let ready = await listener.receive(timeout: 60)
        #expect(ready == "READY=1\nSTATUS=1 client waiting for a fix; waiting for gpsd 127.0.0.1:2947")
        watched.core.ingest(.state(.connected, detail: "connected"))
        // Everything up to the first status change, and at least one ping.
        var messages: [String] = []
        await waitUntil {
            messages += listener.receiveAllNow()
            return messages.contains("WATCHDOG=1") && messages.contains { $0.hasPrefix("STATUS=") }
        }
        #expect(messages.contains("WATCHDOG=1"))
        #expect(
            messages.first { $0.hasPrefix("STATUS=") } == "STATUS=1 client waiting for a fix; gpsd 127.0.0.1:2947 connected, no fix yet")
        await watched.service.shutdown()
        try await watched.running.value
        var rest: [String] = []
        await waitUntil {
            rest += listener.receiveAllNow()
            return rest.contains { $0.hasPrefix("STOPPING=1") }
        }
        #expect(rest.last == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func nothingIsSentAfterStopping() async throws {
        let watched = try Watched()
        #expect(await watched.listener.receive(timeout: 60)?.hasPrefix("READY=1") == true)
        await watched.service.shutdown()
        // A reload that races the stop, as a SIGHUP during shutdown would.
        watched.service.reloading()
        await watched.service.reloaded()
        try await watched.running.value
        let after = watched.listener.receiveAllNow()
        let stopping = try #require(after.firstIndex { $0.hasPrefix("STOPPING=1") }, "STOPPING=1 was sent: \(after)")
        #expect(after[(stopping + 1)...].isEmpty, "sent after STOPPING=1: \(after[(stopping + 1)...])")
    }

    @Test func withoutNotifySocketItOnlyWaitsForShutdown() async throws {
        let dir = try ScratchDirectory("notify")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let service = NotifierService(notifier: SystemdNotifier(environment: [:]), core: core)
        #expect(!service.notifier.isEnabled)
        let finished = Mutex(false)
        let executor = QuietExecutor()
        let running = Task(executorPreference: executor) {
            try await service.run()
            finished.withLock { $0 = true }
        }
        // It sends nothing and does not return before shutdown: once its executor is quiet, run()
        // is suspended on something only shutdown ends (had it returned, `finished` would be set).
        #expect(await waitUntil { executor.isQuiet })
        #expect(!finished.withLock { $0 })
        await service.shutdown()
        try await running.value
        #expect(finished.withLock { $0 })
    }

    /// One wake-up at a time, by hand (the service not running): what each sends is in the
    /// socket when it returns, so nothing is waited for.
    @Test func aStatusChangeSendsOneStatusLineAndNoChangeSendsNone() throws {
        let dir = try ScratchDirectory("notify")
        let listener = try DatagramListener(address: dir.file("notify"))
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "30000000"])
        let service = NotifierService(notifier: notifier, core: core)
        // The first wake-up says the status (nothing was sent before) and pings.
        #expect(service.wake(now: 100) == 115, "the next ping half of WATCHDOG_USEC later")
        #expect(listener.receiveAllNow() == ["STATUS=1 client waiting for a fix; waiting for gpsd 127.0.0.1:2947", "WATCHDOG=1"])
        // Woken with nothing changed and no ping due: nothing goes.
        #expect(service.wake(now: 101) == 115)
        #expect(listener.receiveAllNow() == [])
        // The status changes: one STATUS=, and the ping stays where it was.
        core.ingest(.state(.connected, detail: "connected"))
        #expect(service.wake(now: 102) == 115)
        #expect(listener.receiveAllNow() == ["STATUS=1 client waiting for a fix; gpsd 127.0.0.1:2947 connected, no fix yet"])
        #expect(service.wake(now: 103) == 115)
        #expect(listener.receiveAllNow() == [], "the same line is not sent again")
        // The ping's own wake-up.
        #expect(service.wake(now: 115) == 130)
        #expect(listener.receiveAllNow() == ["WATCHDOG=1"])
        core.shutdown()
    }

    /// Half of WATCHDOG_USEC, counted from each ping; a wake-up for the status does not move it.
    @Test func theWatchdogIsPingedEveryHalfOfWatchdogUsec() throws {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000"])
        let interval: Double = try #require(notifier.watchdogPingInterval)
        #expect(interval == 15)
        var state = NotifierState(pingInterval: interval)
        state.status = "a"
        #expect(state.wake(now: 500, status: "a") == .init(status: nil, ping: true, next: 515), "the first wake-up pings")
        #expect(state.wake(now: 507, status: "b") == .init(status: "b", ping: false, next: 515))
        #expect(state.wake(now: 514.999, status: "b") == .init(status: nil, ping: false, next: 515))
        #expect(state.wake(now: 515.002, status: "b") == .init(status: nil, ping: true, next: 530.002))
    }

    /// Without WATCHDOG_USEC (or with another process's WATCHDOG_PID) nothing is ever due: the
    /// notifier wakes only for a status change.
    @Test(arguments: [[:], ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"]])
    func withoutTheWatchdogOnlyAStatusChangeWakesIt(variables: [String: String]) {
        let notifier = SystemdNotifier(environment: variables.merging(["NOTIFY_SOCKET": "/run/systemd/notify"]) { a, _ in a })
        var state = NotifierState(pingInterval: notifier.watchdogPingInterval)
        #expect(state.wake(now: 10, status: "a") == .init(status: "a", ping: false, next: .infinity))
        #expect(state.wake(now: 1e9, status: "a") == .init(status: nil, ping: false, next: .infinity))
    }

    /// The core says when the status line may have changed: at a source's state, at the first
    /// fix and when the mode changes, never at a fix that changes nothing.
    @Test func theCoreTellsOfStatusChangesAndNotOfFixesThatChangeNothing() throws {
        let dir = try ScratchDirectory("notify")
        let clock = ManualClock()
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: clock.clock)
        let told = Mutex(0)
        core.onStatusChange { _ in told.withLock { $0 += 1 } }
        func change(_ input: () -> Void) -> Int {
            let before = told.withLock { $0 }
            input()
            return told.withLock { $0 } - before
        }
        #expect(change { core.ingest(.state(.connected, detail: "connected")) } > 0)
        clock.advance(1)
        #expect(change { core.ingest(.fix(walkFix(0))) } > 0, "the first fix: the source has a fix, in 3D")
        for n in 1...5 {
            clock.advance(1)
            #expect(change { core.ingest(.fix(walkFix(n, metres: 10 * Double(n)))) } == 0, "fix \(n)")
            #expect(change { core.writeBatchedLines() } == 0, "pause \(n)")
        }
        clock.advance(1)
        #expect(change { core.ingest(.fix(walkFix(6, metres: 60, mode: .twoD))) } > 0, "3D to 2D")
        #expect(change { core.ingest(.state(.connecting, detail: "gone")) } > 0)
        core.shutdown()
    }

    /// While a log cannot be written the line counts its held and lost lines: each pause asks
    /// for it a second later (the alarm is only brought forward, so once a second); once the
    /// log works again, a pause asks for nothing.
    @Test(.enabled(if: Tmpfs.canMount, "needs permission to mount a small tmpfs"))
    func whileALogFailsEachPauseAsksForTheStatusASecondLater() throws {
        let dir = try ScratchDirectory("notify")
        let log = dir.file("log")
        #expect(mkdir(log, 0o755) == 0)
        try #require(Tmpfs.mount(log, size: "256k"))
        defer {
            Tmpfs.unmount(log)
            withExtendedLifetime(dir) {}
        }
        let clock = ManualClock()
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: clock.clock)
        let told = Mutex<[Double]>([])
        core.onStatusChange { time in told.withLock { $0.append(time) } }
        func epoch(_ n: Int) -> [Double] {
            told.withLock { $0.removeAll() }
            clock.advance(1)
            core.ingest(.fix(walkFix(n, metres: 10 * Double(n))))
            core.writeBatchedLines()
            return told.withLock { $0 }
        }
        core.ingest(.state(.connected, detail: "connected"))
        _ = epoch(0)
        #expect(epoch(1) == [], "a log that works: nothing to look at")
        try #require(Tmpfs.fill(log) > 0)
        let now = { clock.clock.monotonic() }
        // The lines fill the log's last page first.
        var n = 2
        var asked: [Double] = []
        while !core.statusLine().contains("cannot write"), n < 100 {
            asked = epoch(n)
            n += 1
        }
        #expect(asked == [now(), now() + EngineOwner.retryDelay], "the log fails: now, and the counts a second later")
        #expect(core.statusLine().contains("cannot write the log of logger: "))
        #expect(epoch(n) == [now() + EngineOwner.retryDelay])
        #expect(unlink(log + "/filler") == 0)
        clock.advance(1)
        told.withLock { $0.removeAll() }
        core.tick()
        #expect(told.withLock { $0.contains(now()) }, "the log works again")
        #expect(!core.statusLine().contains("cannot write"))
        #expect(epoch(n + 1) == [], "nothing fails: a pause asks for nothing")
        core.shutdown()
    }

    /// An alarm set an hour ahead, and a stream that never ticks.
    @Test(arguments: [true, false])
    func aStoppedTickStreamEndsItsLoopAtOnce(alarm: Bool) async {
        let ticks = alarm ? TickStream(alarmOn: .shared) : TickStream()
        ticks.due(by: SystemClock.monotonic() + 3600)
        let loop = Task {
            var count = 0
            for await _ in ticks.ticks { count += 1 }
            return count
        }
        ticks.stop()
        #expect(await loop.value == 0)
    }
}
