#if canImport(Glibc)
import Glibc
#endif
@testable import LocationDaemon
import Testing
import TestSupport

/// Who a peer's process is: pinned by a pidfd so a reused pid is never taken
/// for the app, and its unit read from its cgroup.
@Suite(.timeLimit(.minutes(10)))
struct PeerProcessTests {
    @Test(arguments: [
        ("0::/system.slice/survey.service\n", "survey.service"),
        ("0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-u42.scope\n", "run-u42.scope"),
        ("0::/system.slice/survey.service/worker\n", "survey.service"),
        ("1:name=systemd:/system.slice/survey.service\n0::/\n", "survey.service"),
        ("0::/\n", nil), ("garbage", nil), ("", nil),
    ] as [(String, String?)])
    func theUnitIsTheInnermostServiceOrScopeOfTheCgroup(text: String, unit: String?) {
        #expect(PeerProcess.cgroupPath(text).flatMap(PeerProcess.unitName) == unit)
    }

    @Test func aProcessThatStartedAfterTheConnectionIsNotThePeer() async throws {
        let connectedAt = PeerProcess.bootTicks()
        // Clock ticks are 10 ms, and bootTicks rounds up where a start time rounds down: once it
        // is two ticks on, a process started now has a start time past the connection's.
        try #require(await waitUntil { PeerProcess.bootTicks() > connectedAt + 1 })
        let directory = try ScratchDirectory("pid-reuse")
        let child = try ChildProcess(["/bin/sleep", "30"], stdoutPath: directory.file("out"))
        defer { child.kill() }
        let started = try #require(await eventualValue { PeerProcess.startTime(pid: child.pid) })
        #expect(started > connectedAt)
        // The pid now names a process that started after the peer connected: a reuse, refused.
        #expect(PeerProcess.pinned(pid: child.pid, startedBy: connectedAt) == nil)
        // Taken as it is now, it is the process that has it.
        let pidfd = try #require(PeerProcess.pinned(pid: child.pid, startedBy: PeerProcess.bootTicks()))
        close(pidfd)
    }

    @Test func aPeerThatExitedIsNobody() async throws {
        let directory = try ScratchDirectory("pid-gone")
        let child = try ChildProcess(["/bin/true"], stdoutPath: directory.file("out"))
        #expect(await child.wait(timeout: 30))
        #expect(PeerProcess.pinned(pid: child.pid, startedBy: PeerProcess.bootTicks()) == nil)
        #expect(PeerProcess.unit(pid: child.pid) == nil)
    }
}
