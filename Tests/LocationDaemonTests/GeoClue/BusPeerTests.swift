#if canImport(Glibc)
import Glibc
#endif
import CSupport
@testable import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// A bus peer is what the bus daemon vouches for (`GetConnectionCredentials`,
/// nothing from /proc), its process pinned by a pidfd and checked to be the
/// connection's: a bus that stands here for dbus-daemon answers as the test
/// says, call by call.
@Suite(.timeLimit(.minutes(10)))
struct BusPeerTests {
    /// A bus whose answers to `GetConnectionCredentials` are `answers`, one a call (the last again after).
    final class FakeBus: @unchecked Sendable {
        private var answers: [Result<Principal.BusCredentials, SystemError>]
        private(set) var calls = 0

        init(_ answers: [Result<Principal.BusCredentials, SystemError>]) {
            self.answers = answers
        }

        func ask(_ name: String) -> Result<Principal.BusCredentials, SystemError> {
            calls += 1
            return answers.count > 1 ? answers.removeFirst() : answers[0]
        }
    }

    static let gone = SystemError("GetConnectionCredentials", errno: ENXIO)

    private func sleeper(_ label: String) async throws -> (ChildProcess, ScratchDirectory) {
        let directory = try ScratchDirectory(label)
        let child = try ChildProcess(["/bin/sleep", "30"], stdoutPath: directory.file("out"))
        // Until it runs sleep itself (its comm).
        for _ in 0..<500 where PeerProcess.processName(child.pid) != "sleep" {
            try await Task.sleep(for: .milliseconds(10))
        }
        return (child, directory)
    }

    private func credentials(pid: Int32, uid: UInt32? = getuid(), pidfd: Int32 = -1) -> Result<Principal.BusCredentials, SystemError> {
        .success(Principal.BusCredentials(uid: uid, pid: pid, groups: [0, 27], pidfd: pidfd))
    }

    private func resolve(_ bus: FakeBus) -> Result<Principal, Principal.Unvouched> {
        Principal.busPeer(name: ":1.42", wanting: [.unit, .sandbox, .name], ask: bus.ask)
    }

    @Test func aConnectionTheBusStillHasWithTheSamePidIsItsProcess() async throws {
        let (child, _) = try await sleeper("bus-peer")
        defer { child.kill() }
        let bus = FakeBus([credentials(pid: child.pid)])
        let principal = try resolve(bus).get()
        #expect(principal.uid == getuid() && principal.pid == child.pid && principal.groups == [0, 27])
        // The bus says nothing of a primary group apart from the groups.
        #expect(principal.gid == UInt32.max)
        #expect(principal.process.pinned && principal.process.name == "sleep" && principal.process.sandbox == .host)
        // Asked twice: once for who, once again after the pidfd was open.
        #expect(bus.calls == 2)
    }

    /// The app exited (its connection with it) and its pid went to another process: the bus no
    /// longer has the name once the pidfd is open, so whatever the pidfd names is not the peer.
    @Test func aPidReusedAfterTheAppLeftIsRefused() async throws {
        let (child, _) = try await sleeper("bus-peer-reused")
        defer { child.kill() }
        let bus = FakeBus([credentials(pid: child.pid), .failure(Self.gone)])
        #expect(try #require(resolve(bus).failure).description.contains("left the bus"))
    }

    @Test func aConnectionWhosePidChangedIsRefused() async throws {
        let (child, _) = try await sleeper("bus-peer-changed")
        defer { child.kill() }
        let bus = FakeBus([credentials(pid: child.pid), credentials(pid: child.pid + 1)])
        #expect(try #require(resolve(bus).failure).description.contains("another process now"))
    }

    @Test func aProcessThatExitedIsRefused() async throws {
        let (child, _) = try await sleeper("bus-peer-exited")
        child.kill()
        #expect(await child.wait(timeout: 30))
        let bus = FakeBus([credentials(pid: child.pid)])
        #expect(try #require(resolve(bus).failure).description.contains("has exited"))
    }

    /// The connection lives on in a process that inherited it, and its pid names another user's
    /// process now: not the peer.
    @Test func aProcessOfAnotherUserThanTheBusSaysIsRefused() async throws {
        let (child, _) = try await sleeper("bus-peer-uid")
        defer { child.kill() }
        let other: UInt32 = getuid() == 0 ? 65534 : 0
        let bus = FakeBus([credentials(pid: child.pid, uid: other)])
        #expect(try #require(resolve(bus).failure).description.contains("runs as uid \(getuid()), not uid \(other)"))
    }

    @Test func aPeerTheBusCannotSayEnoughOfIsRefused() async throws {
        let (child, _) = try await sleeper("bus-peer-unsaid")
        defer { child.kill() }
        #expect(try #require(resolve(FakeBus([.failure(Self.gone)])).failure).description.contains("the bus cannot say who :1.42 is"))
        #expect(try #require(resolve(FakeBus([credentials(pid: child.pid, uid: nil)])).failure).description.contains("does not vouch"))
        #expect(try #require(resolve(FakeBus([credentials(pid: 0)])).failure).description.contains("does not vouch"))
    }

    /// The bus's own pidfd (`ProcessFD`: dbus-broker, newer dbus-daemon) is the process
    /// that connected: no second question, and refused when that process has exited.
    @Test func theBussOwnPidfdIsTheConnectionsProcess() async throws {
        let (child, _) = try await sleeper("bus-peer-fd")
        defer { child.kill() }
        let bus = FakeBus([credentials(pid: child.pid, pidfd: csupport_pidfd_open(child.pid))])
        #expect(try resolve(bus).get().process.name == "sleep")
        #expect(bus.calls == 1)
        let exited = try ChildProcess(["/bin/true"], stdoutPath: "/dev/null")
        let pidfd = csupport_pidfd_open(exited.pid)
        #expect(await exited.wait(timeout: 30))
        let gone = FakeBus([credentials(pid: exited.pid, pidfd: pidfd)])
        #expect(try #require(resolve(gone).failure).description.contains("has exited"))
    }
}

extension Result {
    /// The failure, if it is one.
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
