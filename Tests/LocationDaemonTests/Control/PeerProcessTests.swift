#if canImport(Glibc)
import Glibc
#endif
@testable import LocationDaemon
import Testing
import TestSupport

/// Who a peer's process is: pinned by a pidfd so a reused pid is never taken
/// for the app, and its unit read from its cgroup.
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
        // Clock ticks are 10 ms: wait past one so the new process surely started later.
        try await Task.sleep(for: .milliseconds(50))
        let directory = try ScratchDirectory("pid-reuse")
        let child = try ChildProcess(["/bin/sleep", "30"], stdoutPath: directory.file("out"))
        defer { child.kill() }
        let started = try #require(await waitFor { PeerProcess.startTime(pid: child.pid) })
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

    private func waitFor<T>(_ body: () -> T?) async -> T? {
        for _ in 0..<500 {
            if let value = body() { return value }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
