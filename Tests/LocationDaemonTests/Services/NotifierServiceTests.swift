#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationDaemon
import Testing
import TestSupport

/// The systemd service against a real datagram socket standing in for `$NOTIFY_SOCKET`.
@Suite struct NotifierServiceTests {
    @Test func sendsReadyThenStatusChangesWatchdogPingsAndStopping() async throws {
        let dir = try ScratchDirectory("notify")
        let listener = try DatagramListener(address: dir.file("notify"))
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        // WATCHDOG_USEC 0.2 s: a ping every 0.1 s.
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"])
        let service = NotifierService(notifier: notifier, core: core, interval: 0.05)
        let running = Task { try await service.run() }
        // A loaded machine may take a while to run the task: the bound is generous.
        let ready = await listener.receive(timeout: 60)
        #expect(ready == "READY=1\nSTATUS=1 client waiting for a fix; waiting for gpsd 127.0.0.1:2947")
        await core.ingest(.state(.connected, detail: "connected"))
        // Everything up to the first status change, and at least one ping.
        var messages: [String] = []
        await waitUntil {
            while let message = listener.receiveNow() { messages.append(message) }
            return messages.contains("WATCHDOG=1") && messages.contains { $0.hasPrefix("STATUS=") }
        }
        #expect(messages.contains("WATCHDOG=1"))
        #expect(
            messages.first { $0.hasPrefix("STATUS=") } == "STATUS=1 client waiting for a fix; gpsd 127.0.0.1:2947 connected, no fix yet")
        await service.shutdown()
        try await running.value
        var rest: [String] = []
        await waitUntil {
            while let message = listener.receiveNow() { rest.append(message) }
            return rest.contains { $0.hasPrefix("STOPPING=1") }
        }
        #expect(rest.last == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func nothingIsSentAfterStopping() async throws {
        let dir = try ScratchDirectory("notify")
        let listener = try DatagramListener(address: dir.file("notify"))
        let core = try DaemonCore(config: try daemonConfig(in: dir), seed: 1, clock: ManualClock().clock)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"])
        let service = NotifierService(notifier: notifier, core: core, interval: 0.05)
        let running = Task { try await service.run() }
        #expect(await listener.receive(timeout: 60)?.hasPrefix("READY=1") == true)
        await service.shutdown()
        // A reload that races the stop, as a SIGHUP during shutdown would.
        service.reloading()
        await service.reloaded()
        try await running.value
        var after: [String] = []
        while let message = listener.receiveNow() { after.append(message) }
        let stopping = try #require(after.firstIndex { $0.hasPrefix("STOPPING=1") }, "STOPPING=1 was sent: \(after)")
        #expect(after[(stopping + 1)...].isEmpty, "sent after STOPPING=1: \(after[(stopping + 1)...])")
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
