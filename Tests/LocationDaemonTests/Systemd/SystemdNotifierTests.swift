#if canImport(Glibc)
import Glibc
#endif
import LocationDaemon
import Testing

/// A datagram socket standing in for systemd's notification socket.
final class NotifySocketListener {
    let fd: Int32
    /// The `$NOTIFY_SOCKET` value: a path, or `@name`.
    let address: String

    init(address: String) throws {
        self.address = address
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        var name = Array(address.utf8)
        if name.first == UInt8(ascii: "@") { name[0] = 0 }
        withUnsafeMutableBytes(of: &sa.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(2 + name.count + (name.first == 0 ? 0 : 1))
        let bound = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0, "bind \(address): \(String(cString: strerror(errno)))")
        // Never wait forever for a datagram that does not come.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The next datagram's text, or `nil` after 5 s.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }
}

@Suite struct SystemdNotifierTests {
    @Test func sendsEachNotificationAsOneDatagramToAPathSocket() throws {
        let dir = try ScratchDirectory()
        let listener = try NotifySocketListener(address: dir.file("notify"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        #expect(notifier.isEnabled)
        try notifier.ready(status: "gpsd at 127.0.0.1:2947; 1 client")
        #expect(listener.receive() == "READY=1\nSTATUS=gpsd at 127.0.0.1:2947; 1 client")
        try notifier.status("waiting for gpsd\nretrying in 2 s")
        #expect(listener.receive() == "STATUS=waiting for gpsd retrying in 2 s")
        try notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        try notifier.stopping(status: "stopping")
        #expect(listener.receive() == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func reachesAnAbstractSocket() throws {
        let name = "@locationd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try NotifySocketListener(address: name)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        try notifier.ready()
        #expect(listener.receive() == "READY=1")
        try notifier.reloading(status: "reloading the configuration")
        let reload = try #require(listener.receive()).split(separator: "\n")
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
