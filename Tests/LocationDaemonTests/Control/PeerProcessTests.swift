#if canImport(Glibc)
import Glibc
#endif
import CSupport
@testable import LocationDaemon
import Testing
import TestSupport

/// Who a peer's process is: pinned by a pidfd so a reused pid is never taken
/// for the app; its system unit the one the system manager runs it in, never
/// a unit of a user's own manager.
@Suite(.timeLimit(.minutes(10)))
struct PeerProcessTests {
    /// (cgroup path, system unit, user unit)
    @Test(arguments: [
        ("/system.slice/survey.service", "survey.service", nil),
        ("/system.slice/survey.service/worker", "survey.service", nil),
        ("/init.scope", "init.scope", nil),
        // Nested slices are skipped, however deep.
        ("/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", nil),
        ("/a.slice/a-b.slice/a-b-c.slice/survey.service/sub/deeper", "survey.service", nil),
        // A delegated subtree (a container manager's) names its cgroups as it likes: the unit is the manager's.
        ("/system.slice/containers.service/survey.service", "containers.service", nil),
        // A user's manager owns its subtree: what runs there is a user unit, never a system one.
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/run-u42.scope", "user@1000.service", "run-u42.scope"),
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/survey.service", "user@1000.service", "survey.service"),
        ("/user.slice/user-1000.slice/user@1000.service/survey.service", "user@1000.service", "survey.service"),
        ("/user.slice/user-1000.slice/user@1000.service/system.slice/survey.service", "user@1000.service", "survey.service"),
        ("/user.slice/user-1000.slice/user@1000.service/init.scope", "user@1000.service", "init.scope"),
        ("/user.slice/user-1000.slice/user@1000.service", "user@1000.service", nil),
        // A login session's scope is logind's system unit; a process in it is in that scope.
        ("/user.slice/user-1000.slice/session-3.scope", "session-3.scope", nil),
        // No unit: the root, a slice alone, a name that is not a unit.
        ("/", nil, nil), ("", nil, nil), ("/system.slice", nil, nil), ("/system.slice/worker", nil, nil),
        ("/system.slice/survey.socket", nil, nil),
    ] as [(String, String?, String?)])
    func theSystemUnitIsTheFirstUnitBelowTheSlicesAndAUsersManagerHoldsOnlyUserUnits(path: String, system: String?, user: String?) {
        let units = PeerProcess.units(ofCgroup: path)
        #expect(units.system == system && units.user == user, "\(units)")
    }

    /// Names that are not systemd's are no unit, wherever they are.
    @Test(arguments: [
        ("/system.slice/a\\x2db.service", "a\\x2db.service"),
        ("/system.slice/survey@x@y.service", "survey@x@y.service"),
        ("/system.slice/sur vey.service", nil),
        ("/system.slice/survey\u{1B}[2J.service", nil),
        ("/system.slice/sürvey.service", nil),
        ("/system.slice/survey\n.service", nil),
        ("/system.slice/survey@.service", nil),
        ("/system.slice/@x.service", nil),
        ("/system.slice/.service", nil),
        ("/system.slice/survey.service.bak", nil),
        ("/system.slice/survey", nil),
        ("/system.slice/" + String(repeating: "s", count: 248) + ".service", nil),
        ("/system.slice/" + String(repeating: "s", count: 247) + ".service", String(repeating: "s", count: 247) + ".service"),
        ("/sys tem.slice/survey.service", nil),
    ] as [(String, String?)])
    func oddNamesAreNoUnit(path: String, system: String?) {
        #expect(PeerProcess.units(ofCgroup: path).system == system)
    }

    /// (the text of /proc/PID/cgroup, the path read from it)
    @Test(arguments: [
        ("0::/system.slice/survey.service\n", "/system.slice/survey.service"),
        ("1:name=systemd:/system.slice/survey.service\n0::/\n", "/system.slice/survey.service"),
        ("9:name=systemd:/\n8:pids:/\n4:memory:/process_api/a9\n2:cpu,cpuacct:/\n0::/\n", "/"),
        ("12:pids:/system.slice/survey.service\n1:name=systemd:/system.slice/survey.service\n", "/system.slice/survey.service"),
        ("0::/\n", "/"), ("garbage", nil), ("", nil), ("0::/system.slice/survey.service", nil), ("0:cpu:/\n", nil),
    ] as [(String, String?)])
    func theCgroupPathIsTheUnifiedHierarchysOrSystemds(text: String, path: String?) {
        #expect(PeerProcess.cgroupPath(text) == path)
    }

    /// A user names the cgroups of their own manager's subtree, newlines included: a name that
    /// fakes a line of /proc/PID/cgroup is seen for what it is and nothing is read.
    @Test(arguments: [
        "0::/user.slice/user-1000.slice/user@1000.service/x\n0::/system.slice/survey.service\n",
        "9:name=systemd:/user.slice/user-1000.slice/user@1000.service/x\n1:name=systemd:/system.slice/survey.service\n8:pids:/\n0::/\n",
        "1:name=systemd:/user.slice/user-1000.slice/user@1000.service/x\n0::/system.slice/survey.service\n0::/\n",
        "2:name=systemd:/u/x\n1:name=systemd:/system.slice/survey.service\n0::/\n",
    ])
    func aCgroupNameThatFakesALineIsNotBelieved(text: String) {
        #expect(PeerProcess.cgroupPath(text) == nil)
    }

    /// `app_units` names system units only: a user's `survey.service` (or anything under their
    /// manager) is not survey's app, on any face.
    @Test func aUsersOwnSurveyServiceIsNotSurveysApp() {
        let app = ProgramAllowList(everyone: false, users: [], groups: [], units: ["survey.service", "run-u42.scope"])
        var directory = AppDirectory()
        directory.apps = [("survey", app)]
        func principal(_ path: String) -> Principal {
            let units = PeerProcess.units(ofCgroup: path)
            return Principal(
                uid: 1000, gid: 1000, groups: [1000], pid: 4242,
                process: ProcessFacts(pinned: true, systemUnit: units.system, userUnit: units.user))
        }
        let system = principal("/system.slice/survey.service")
        #expect(app.matches(system) && directory.clients(of: system) == ["survey"])
        #expect(ControlPeer(system, group: nil, apps: directory).apps == ["survey"])
        for path in [
            "/user.slice/user-1000.slice/user@1000.service/app.slice/survey.service",
            "/user.slice/user-1000.slice/user@1000.service/app.slice/run-u42.scope",
            "/user.slice/user-1000.slice/user@1000.service/system.slice/survey.service",
        ] {
            let user = principal(path)
            #expect(!app.matches(user) && !app.admits(user), "\(path)")
            #expect(directory.clients(of: user).isEmpty && ControlPeer(user, group: nil, apps: directory).apps.isEmpty, "\(path)")
        }
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
        let child = try ChildProcess(["/bin/sleep", "30"], stdoutPath: directory.file("out"))
        let pidfd = csupport_pidfd_open(child.pid)
        try #require(pidfd >= 0)
        defer { close(pidfd) }
        child.kill()
        #expect(await child.wait(timeout: 30))
        #expect(PeerProcess.pinned(pid: child.pid, startedBy: PeerProcess.bootTicks()) == nil)
        // Its pidfd says so: no fact is read of whatever has the pid now.
        #expect(PeerProcess.facts(pidfd: pidfd, pid: child.pid, wanting: [.unit, .sandbox, .name]) == .failure(.exited))
    }

    /// A process that exited but is not reaped yet still holds its pid (a signal 0 reaches it),
    /// but it is no live process: nothing is read of it.
    @Test func aZombieIsNotAlive() throws {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        defer {
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        let pidfd = csupport_pidfd_open(pid)
        try #require(pidfd >= 0)
        defer { close(pidfd) }
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 30_000) == 1, "/bin/true did not end")
        #expect(kill(pid, 0) == 0)
        #expect(!PeerProcess.alive(pidfd))
        #expect(PeerProcess.facts(pidfd: pidfd, pid: pid, wanting: [.unit, .sandbox, .name]) == .failure(.exited))
    }

    /// A live process: its name and sandbox through its pidfd; a uid it does not run as is refused.
    @Test func aPinnedProcessIsReadThroughItsPidfdAndMustRunAsTheUserVouchedFor() async throws {
        let directory = try ScratchDirectory("pid-facts")
        let child = try ChildProcess(["/bin/sleep", "30"], stdoutPath: directory.file("out"))
        defer { child.kill() }
        try #require(await eventualValue { PeerProcess.startTime(pid: child.pid) } != nil)
        let pidfd = csupport_pidfd_open(child.pid)
        try #require(pidfd >= 0)
        defer { close(pidfd) }
        let facts = try PeerProcess.facts(pidfd: pidfd, pid: child.pid, wanting: [.sandbox, .name], expectedUID: getuid()).get()
        #expect(facts.pinned && facts.name == "sleep" && facts.sandbox == .host, "\(facts)")
        #expect(facts.flatpakId == nil && facts.systemUnit == nil)
        let other = getuid() == 0 ? UInt32(65534) : 0
        #expect(PeerProcess.facts(pidfd: pidfd, pid: child.pid, wanting: [.name], expectedUID: other)
            == .failure(.otherUser(expected: other, found: getuid())))
    }
}
