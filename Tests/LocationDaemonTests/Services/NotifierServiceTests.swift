#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationDaemon
import Synchronization
import Testing
import TestSupport

/// The systemd service against a real datagram socket standing in for `$NOTIFY_SOCKET`.
@Suite struct NotifierServiceTests {
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
            let service = NotifierService(notifier: notifier, core: core, interval: 0.05)
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
        let service = NotifierService(notifier: SystemdNotifier(environment: [:]), core: core, interval: 0.01)
        #expect(!service.notifier.isEnabled)
        let finished = Mutex(false)
        let running = Task {
            try await service.run()
            finished.withLock { $0 = true }
        }
        // However often the others run first, it sends nothing and does not return before shutdown.
        for _ in 0..<100 { await Task.yield() }
        #expect(!finished.withLock { $0 })
        await service.shutdown()
        try await running.value
        #expect(finished.withLock { $0 })
    }

    /// A long interval, and none (a stream that only ends).
    @Test(arguments: [3600, nil] as [Double?])
    func aStoppedTickStreamEndsItsLoopAtOnce(interval: Double?) async {
        let ticks = TickStream(interval: interval)
        let loop = Task {
            var count = 0
            for await _ in ticks.ticks { count += 1 }
            return count
        }
        ticks.stop()
        #expect(await loop.value == 0)
    }
}
