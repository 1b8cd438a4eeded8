import CGPS
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The C shim on its own: error codes, and a real TPV from a real gpsd.
@Suite(.timeLimit(.minutes(10))) struct CGPSShimTests {
    /// libgps is opened on first use (`cgps_library_load`, as a gpsd source does when it first
    /// connects), and `cgps_open` refuses with ELIBACC before that: each test here opens it
    /// itself rather than count on another test, run before it or beside it, having done so.
    init() throws {
        var message = [CChar](repeating: 0, count: 512)
        let loaded = cgps_library_load(&message, message.count)
        try #require(loaded >= 0, "libgps: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }

    @Test func compiledAgainstAKnownLibgpsAPI() {
        #expect((11...16).contains(cgps_api_major()))
    }

    /// #39: the release the program sockets' VERSION gives is the installed gpsd's, as its clients have it.
    @Test(.enabled(if: ExternalTool.isAvailable("gpspipe"), "needs gpspipe (gpsd-clients)"))
    func theLibgpsReleaseIsTheInstalledGpsdsOwn() async throws {
        let release = try #require(cgps_gpsd_release().map { String(cString: $0) })
        let gpspipe = try await ChildProcess.run(["gpspipe", "-V"])
        // gpspipe says its version on stderr.
        #expect(gpspipe.stderr.hasPrefix("gpspipe: \(release) "), "libgps \(release); \(gpspipe.stderr)")
    }

    @Test func openingAClosedPortGivesLibgpsConnectErrorAndItsText() throws {
        let port = try GPSFake.freePort()
        var session: OpaquePointer?
        let status = cgps_open("127.0.0.1", String(port), &session)
        #expect(status == -6, "libgps's NL_NOCONNECT")
        #expect(session == nil)
        #expect(String(cString: cgps_strerror(status)) == "can't connect to host/port pair")
    }

    @Test func anUnknownServiceNameGivesLibgpsServiceError() {
        var session: OpaquePointer?
        let status = cgps_open("127.0.0.1", "no-such-service-name", &session)
        #expect(status == -1, "libgps's NL_NOSERVICE")
        #expect(session == nil)
        #expect(String(cString: cgps_strerror(status)) == "can't get service entry")
    }

    @Test func nonSocketExportsAreRefused() {
        var session: OpaquePointer?
        #expect(cgps_open("shared memory", "2947", &session) == EINVAL)
        #expect(cgps_open("DBUS export", "2947", &session) == EINVAL)
        #expect(session == nil)
        #expect(String(cString: cgps_strerror(EINVAL)) == String(cString: strerror(EINVAL)))
    }

    @Test(.enabled(if: GPSFake.isAvailable, "needs gpsfake, gpsd and python3-gps"))
    func readsATPVFromARealGPSDWithUnknownValuesMarked() async throws {
        let epochs = NMEALogWriter.walk(count: 5)
        let log = NMEALogWriter.write(epochs, name: "shim")
        defer { unlink(log) }
        let fake = try await GPSFake.start(log: log)
        defer { fake.stop() }

        var opened: OpaquePointer?
        #expect(cgps_open("127.0.0.1", String(fake.port), &opened) == 0)
        let session = try #require(opened)
        defer { cgps_close(session) }

        var report = cgps_report()
        var kinds: [cgps_kind] = []
        #expect(await Self.next(session, &report, &kinds) { $0.kind == CGPS_REPORT_WATCH })
        #expect(kinds.first == CGPS_REPORT_VERSION, "gpsd greets with VERSION")
        fake.release()
        #expect(
            await Self.next(session, &report, &kinds) {
                $0.kind == CGPS_REPORT_TPV && $0.fix.set & UInt32(CGPS_HAS_TIME) != 0
            })
        let fix = report.fix
        let set = fix.set
        #expect(fix.mode == 3)
        #expect(set & UInt32(CGPS_HAS_MODE | CGPS_HAS_LATLON | CGPS_HAS_ALT_MSL | CGPS_HAS_EPH) != 0)
        #expect(Double(fix.time_sec) + Double(fix.time_nsec) / 1e9 == epochs[0].time)
        #expect(abs(fix.latitude - epochs[0].latitude) < 1e-7)
        #expect(abs(fix.longitude - epochs[0].longitude) < 1e-7)
        #expect(abs(fix.alt_msl - epochs[0].altitude) < 1e-6)
        // No GSV in the log, so gpsd has no per-axis error: unknown, twice over.
        #expect(set & UInt32(CGPS_HAS_EPX) == 0)
        #expect(fix.epx.isNaN)
    }

    @Test(.enabled(if: GPSFake.isAvailable, "needs gpsfake, gpsd and python3-gps"))
    func aWaitEndsByItsTimeoutOrAShutdownAndAVanishedGPSDEndsTheSession() async throws {
        let log = NMEALogWriter.write(NMEALogWriter.walk(count: 3), name: "shim-wake")
        defer { unlink(log) }
        let fake = try await GPSFake.start(log: log)
        defer { fake.stop() }
        var report = cgps_report()
        var kinds: [cgps_kind] = []
        var sysErrno: Int32 = 0

        // The first session: nothing comes after the greeting (the log is held back), so a wait
        // with a timeout ends by it, and one without ends when another thread shuts the socket down.
        var opened: OpaquePointer?
        #expect(cgps_open("127.0.0.1", String(fake.port), &opened) == 0)
        let session = try #require(opened)
        defer { cgps_close(session) }
        #expect(await Self.next(session, &report, &kinds) { $0.kind == CGPS_REPORT_WATCH })
        #expect(cgps_read(session, &report, &sysErrno) == 0)
        #expect(cgps_wait(session, 50) == CGPS_WAIT_TIMEOUT)
        let waited = Mutex<Int32?>(nil)
        let waiter = Mutex<pid_t?>(nil)
        let blocked = SendableSession(session)
        DedicatedThread.run {
            waiter.withLock { $0 = ProcFS.currentThreadID() }
            let result = cgps_wait(blocked.session, -1)
            waited.withLock { $0 = result }
        }
        // The thread is in its wait (asleep in recv(2), as /proc says) before the socket is shut.
        #expect(await waitUntil { waiter.withLock { $0 }.map { ProcFS.isWaiting(thread: $0, in: ProcFS.receivingSyscalls) } ?? false })
        #expect(waited.withLock { $0 } == nil, "the wait without a timeout returned before the shutdown")
        #expect(shutdown(cgps_descriptor(session), Int32(SHUT_RDWR)) == 0)
        await waitUntil { waited.withLock { $0 } != nil }
        #expect(waited.withLock { $0 } == Int32(CGPS_WAIT_READY))
        #expect(cgps_read(session, &report, &sysErrno) == -1)
        #expect(sysErrno == 0)

        // The second: gpsd goes away.
        var second: OpaquePointer?
        #expect(cgps_open("127.0.0.1", String(fake.port), &second) == 0)
        let other = try #require(second)
        defer { cgps_close(other) }
        #expect(await Self.next(other, &report, &kinds) { $0.kind == CGPS_REPORT_WATCH })
        #expect(fake.killGPSD())
        var status: Int32 = 0
        let end = monotonicNow() + 60
        repeat {
            status = cgps_read(other, &report, &sysErrno)
            if status == 0 && cgps_wait(other, 0) == CGPS_WAIT_TIMEOUT {
                await pause(0.01)
            }
        } while status >= 0 && monotonicNow() < end
        #expect(status == -1)
        #expect(sysErrno == 0 || sysErrno == ECONNRESET)
    }

    /// A session handed to the thread that blocks in its wait.
    private struct SendableSession: @unchecked Sendable {
        let session: OpaquePointer
        init(_ session: OpaquePointer) { self.session = session }
    }

    /// Reads reports until one matches (true), the session ends or 60 s pass
    /// (false). Polls without blocking, so other tests keep their threads.
    static func next(
        _ session: OpaquePointer, _ report: inout cgps_report, _ kinds: inout [cgps_kind],
        where match: (cgps_report) -> Bool
    ) async -> Bool {
        let deadline = monotonicNow() + 60
        while monotonicNow() < deadline {
            var sysErrno: Int32 = 0
            let status = cgps_read(session, &report, &sysErrno)
            if status > 0 {
                kinds.append(report.kind)
                if match(report) { return true }
                continue
            }
            if status < 0 { return false }
            if cgps_wait(session, 0) == CGPS_WAIT_TIMEOUT {
                await pause(0.01)
            }
        }
        return false
    }
}
