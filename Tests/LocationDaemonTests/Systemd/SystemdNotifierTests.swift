#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import LocationDaemon
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(10))) struct SystemdNotifierTests {
    @Test func sendsEachNotificationAsOneDatagramToAPathSocket() async throws {
        let dir = try ScratchDirectory()
        let listener = try DatagramListener(address: dir.file("notify"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        #expect(notifier.isEnabled)
        try notifier.ready(status: "gpsd at 127.0.0.1:2947; 1 client")
        #expect(await listener.receive(timeout: 30) == "READY=1\nSTATUS=gpsd at 127.0.0.1:2947; 1 client")
        try notifier.status("waiting for gpsd\nretrying in 2 s")
        #expect(await listener.receive(timeout: 30) == "STATUS=waiting for gpsd retrying in 2 s")
        try notifier.watchdog()
        #expect(await listener.receive(timeout: 30) == "WATCHDOG=1")
        try notifier.stopping(status: "stopping")
        #expect(await listener.receive(timeout: 30) == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func reachesAnAbstractSocket() async throws {
        let name = "@locationd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try DatagramListener(address: name)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        try notifier.ready()
        #expect(await listener.receive(timeout: 30) == "READY=1")
        try notifier.reloading(status: "reloading the configuration")
        let reload = try #require(await listener.receive(timeout: 30)).split(separator: "\n")
        #expect(reload.count == 3)
        #expect(reload.first == "RELOADING=1")
        #expect(reload.dropFirst().first?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect(UInt64(reload[1].dropFirst("MONOTONIC_USEC=".count)) != nil)
        #expect(reload.last == "STATUS=reloading the configuration")
    }

    @Test func withoutNotifySocketEverythingIsANoOp() throws {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        try notifier.ready(status: "nobody listens")
        try notifier.watchdog()
    }

    @Test func failureToReachTheSocketIsReported() throws {
        let dir = try ScratchDirectory()
        let missing = SystemdNotifier(environment: ["NOTIFY_SOCKET": dir.file("nobody")])
        let error = try #require(throws: SystemError.self) { try missing.ready() }
        #expect(error.errno == ENOENT)
        #expect(error.description.contains(dir.file("nobody")))
        let relative = SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"])
        #expect(throws: SystemError.self) { try relative.ready() }
        let long = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)])
        #expect((try? long.ready()) == nil)
    }

    @Test(arguments: [
        (["WATCHDOG_USEC": "30000000"], 30.0),
        (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"], 30.0),
        (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4243"], nil),
        (["WATCHDOG_USEC": "0"], nil),
        (["WATCHDOG_USEC": "soon"], nil),
        ([:], nil),
    ] as [([String: String], Double?)])
    func watchdogIntervalComesFromWatchdogUsecForThisProcess(variables: [String: String], interval: Double?) {
        let notifier = SystemdNotifier(environment: variables.merging(["NOTIFY_SOCKET": "/run/systemd/notify"]) { a, _ in a }, processID: 4242)
        #expect(notifier.watchdogInterval == interval)
        #expect(notifier.watchdogPingInterval == interval.map { $0 / 2 })
    }
}
