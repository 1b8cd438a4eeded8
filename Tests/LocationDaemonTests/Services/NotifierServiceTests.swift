#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationDaemon
import Testing

/// The systemd service against a real datagram socket standing in for `$NOTIFY_SOCKET`.
@Suite struct NotifierServiceTests {
    @Test func sendsReadyThenStatusChangesWatchdogPingsAndStopping() async throws {
        let dir = try ScratchDirectory("notify")
        let listener = try NotifySocketListener(address: dir.file("notify"))
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        // WATCHDOG_USEC 0.2 s: a ping every 0.1 s.
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"])
        let service = NotifierService(notifier: notifier, core: core, interval: 0.05)
        let running = Task { try await service.run() }
        // A loaded machine may take a while to run the task: wait (boundedly) for READY first.
        var ready: String?
        for _ in 0..<6 where ready == nil { ready = listener.receive() }
        #expect(ready == "READY=1\nSTATUS=1 client waiting for a fix; waiting for gpsd 127.0.0.1:2947")
        await core.ingest(.state(.connected, detail: "connected"))
        var messages: [String] = []
        while messages.count < 200, !messages.contains(where: { $0.hasPrefix("STATUS=") }), let message = listener.receive() {
            messages.append(message)
        }
        #expect(messages.contains("WATCHDOG=1"))
        #expect(messages.contains("STATUS=1 client waiting for a fix; gpsd 127.0.0.1:2947 connected, no fix yet"))
        await service.shutdown()
        try await running.value
        var rest: [String] = []
        while rest.count < 200, !rest.contains(where: { $0.hasPrefix("STOPPING=1") }), let message = listener.receive() {
            rest.append(message)
        }
        #expect(rest.last == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func withoutNotifySocketItOnlyWaitsForShutdown() async throws {
        let dir = try ScratchDirectory("notify")
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let service = NotifierService(notifier: SystemdNotifier(environment: [:]), core: core, interval: 0.01)
        let running = Task { try await service.run() }
        await service.shutdown()
        try await running.value
    }

    @Test func aStoppedTickStreamEndsItsLoopAtOnce() async {
        let ticks = TickStream(interval: 3600)
        let loop = Task {
            var count = 0
            for await _ in ticks.ticks { count += 1 }
            return count
        }
        ticks.stop()
        #expect(await loop.value == 0)
    }
}
