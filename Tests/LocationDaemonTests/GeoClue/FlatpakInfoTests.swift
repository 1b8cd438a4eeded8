#if canImport(Glibc)
import Glibc
#endif
import CSupport
@testable import LocationDaemon
import Testing
import TestSupport

/// A Flatpak app id comes from what the sandbox cannot write, the instance's
/// `/.flatpak-info` in the process's own root, never from a scope's name.
@Suite(.timeLimit(.minutes(10)))
struct FlatpakInfoTests {
    static let maps = "[Application]\nname=org.gnome.Maps\nruntime=runtime/org.gnome.Platform/x86_64/46\n\n[Instance]\ninstance-id=1234\n"

    /// A root directory (a scratch `ROOT`) holding `.flatpak-info` with `text`, or nothing.
    private func root(_ text: String?) throws -> ScratchDirectory {
        let directory = try ScratchDirectory("flatpak-root")
        if let text { try directory.write(".flatpak-info", text) }
        return directory
    }

    @Test func theAppIdIsTheApplicationsNameInTheRootsFlatpakInfo() throws {
        let directory = try root(Self.maps)
        #expect(FlatpakInfo.read(root: directory.path) == .flatpak("org.gnome.Maps"))
        // Spaces around `=`, comments, other groups' names and translated keys change nothing.
        let spaced = try root("# flatpak\n[Runtime]\nname=org.gnome.Platform\n[Application]\nname[fr]=Cartes\n  name = org.gnome.Maps\n")
        #expect(FlatpakInfo.read(root: spaced.path) == .flatpak("org.gnome.Maps"))
    }

    @Test func aRootWithoutFlatpakInfoIsAHostProcess() throws {
        let directory = try root(nil)
        #expect(FlatpakInfo.read(root: directory.path) == .host)
        #expect(FlatpakInfo.read(root: directory.file("missing")) == nil)
    }

    /// (the file's text, what is wrong with it)
    @Test(arguments: [
        ("[Runtime]\nname=org.gnome.Platform\n", "names no app"),
        ("[Application]\nname=org.gnome.Maps\nname=org.evil.App\n", "more than one app"),
        ("[Application]\nname=org.gnome.Maps\n[Application]\nname=org.evil.App\n", "more than one app"),
        ("[Application]\nname=org.gnome\n", "not a Flatpak app id"),
        ("[Application]\nname=org.gnome.Maps\u{1B}[2J\n", "not a Flatpak app id"),
        ("[Application]\nname=org.gnome.Maps \n", "not a Flatpak app id"),
        ("[Application\nname=org.gnome.Maps\n", "not a key file"),
        ("[Application]\nname org.gnome.Maps\n", "not a key file"),
    ])
    func aFlatpakInfoThatNamesNoValidAppIsASandboxWhoseAppCannotBeTold(text: String, why: String) throws {
        let directory = try root(text)
        guard case .unidentified(let said) = FlatpakInfo.read(root: directory.path) else {
            Issue.record("not refused: \(text)")
            return
        }
        #expect(said.contains(why), "\(said)")
    }

    @Test func aLinkAFIFOOrAnOversizedFileIsNotRead() async throws {
        let linked = try root(nil)
        try linked.write("elsewhere", Self.maps)
        try #require(symlink(linked.file("elsewhere"), linked.file(".flatpak-info")) == 0)
        #expect(FlatpakInfo.read(root: linked.path) == .unidentified("/.flatpak-info is a symbolic link"))
        // A FIFO is never waited on.
        let fifo = try root(nil)
        try #require(mkfifo(fifo.file(".flatpak-info"), 0o600) == 0)
        #expect(FlatpakInfo.read(root: fifo.path) == .unidentified("/.flatpak-info is not a regular file"))
        let large = try root(Self.maps + "# " + String(repeating: "x", count: FlatpakInfo.maximumSize) + "\n")
        guard case .unidentified(let why) = FlatpakInfo.read(root: large.path) else {
            Issue.record("an oversized file was read")
            return
        }
        #expect(why.contains("larger than"))
    }

    /// Flatpak's rule for an app id: a reverse-DNS id of at most 255 bytes.
    @Test(arguments: [
        ("org.gnome.Maps", true), ("org.gnome.Maps-Beta", true), ("io.github.some_one.App2", true),
        ("org.gnome", false), ("org..Maps", false), (".org.gnome.Maps", false), ("org.gnome.Maps.", false),
        ("org.gno-me.Maps", false), ("org.1gnome.Maps", false), ("org.gnome.Ma ps", false), ("org.gnome.Mäps", false),
        ("org.gnome.Maps/evil", false), ("org.gnome." + String(repeating: "M", count: 245), true),
        ("org.gnome." + String(repeating: "M", count: 246), false),
    ] as [(String, Bool)])
    func anAppIdIsFlatpaksReverseDNSName(id: String, valid: Bool) {
        #expect(FlatpakInfo.isAppId(id[...]) == valid)
    }

    // MARK: Through the pinned process

    /// A fake `/proc` for this very process (pinned by its own pidfd): `cgroup`, `comm` and `root/`.
    private func proc(cgroup: String, flatpakInfo: String?, root: Bool = true) throws -> ScratchDirectory {
        let directory = try ScratchDirectory("fake-proc")
        let pid = getpid()
        try #require(mkdir(directory.file("\(pid)"), 0o755) == 0)
        if root { try #require(mkdir(directory.file("\(pid)/root"), 0o755) == 0) }
        try directory.write("\(pid)/cgroup", cgroup)
        try directory.write("\(pid)/comm", "maps\n")
        if let flatpakInfo { try directory.write("\(pid)/root/.flatpak-info", flatpakInfo) }
        return directory
    }

    private func facts(_ directory: ScratchDirectory) throws -> ProcessFacts {
        let pidfd = csupport_pidfd_open(getpid())
        try #require(pidfd >= 0)
        defer { close(pidfd) }
        return try PeerProcess.facts(pidfd: pidfd, pid: getpid(), wanting: [.unit, .sandbox, .name], proc: directory.path).get()
    }

    static let flatpakScope = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.gnome.Maps-4242.scope\n"

    /// Anyone can run a process in a scope named `app-flatpak-org.gnome.Maps-4242.scope` (their own
    /// manager names it as they ask): without a `.flatpak-info` in its root it is no Flatpak app,
    /// and its DesktopId is its own label as any host process's.
    @Test func aScopeNameAloneGivesNoFlatpakId() throws {
        let facts = try facts(proc(cgroup: Self.flatpakScope, flatpakInfo: nil))
        #expect(facts.userUnit == "app-flatpak-org.gnome.Maps-4242.scope" && facts.systemUnit == "user@1000.service")
        #expect(facts.sandbox == .host && facts.flatpakId == nil && facts.name == "maps", "\(facts)")
        let peer = GeoCluePeer(busName: ":1.42", principal: Principal(uid: 1000, gid: 1000, groups: nil, pid: getpid(), process: facts))
        #expect(try peer.desktopId(claimed: "org.example.Other").get() == "org.example.Other")
    }

    /// The sandbox's own file names the app, whatever DesktopId it sets and whatever its scope says.
    @Test func theRootsFlatpakInfoNamesTheAppWhateverItsScopeOrDesktopIdSay() throws {
        let facts = try facts(proc(cgroup: "0::/system.slice/survey.service\n", flatpakInfo: Self.maps))
        #expect(facts.flatpakId == "org.gnome.Maps" && facts.systemUnit == "survey.service", "\(facts)")
        let peer = GeoCluePeer(busName: ":1.42", principal: Principal(uid: 1000, gid: 1000, groups: nil, pid: getpid(), process: facts))
        #expect(try peer.desktopId(claimed: "org.example.Bank").get() == "org.gnome.Maps")
    }

    @Test func aSandboxWhoseAppCannotBeToldIsRefused() throws {
        let facts = try facts(proc(cgroup: Self.flatpakScope, flatpakInfo: "[Application]\nname=not an id\n"))
        let peer = GeoCluePeer(busName: ":1.42", principal: Principal(uid: 1000, gid: 1000, groups: nil, pid: getpid(), process: facts))
        guard case .failure(let why) = peer.desktopId(claimed: "org.gnome.Maps") else {
            Issue.record("not refused")
            return
        }
        #expect(why.description.contains("cannot be told"), "\(why)")
    }

    /// A live process whose root is not there to open (hidden from locationd: ProtectProc=invisible
    /// makes another user's /proc/PID absent) is not taken for one that exited: its sandbox is not known.
    @Test func aRootLocationdCannotSeeIsNotKnownNotExited() throws {
        let facts = try facts(proc(cgroup: Self.flatpakScope, flatpakInfo: nil, root: false))
        #expect(facts.pinned && facts.sandbox == nil && facts.userUnit == "app-flatpak-org.gnome.Maps-4242.scope", "\(facts)")
    }

    /// Where locationd may not look into a process's root (another user's, under the packaged
    /// unit's ProtectProc=invisible), a process in a Flatpak scope may be a sandbox whose id cannot be
    /// checked: refused. Any other is taken as a host process.
    @Test func aFlatpakScopeLocationdMayNotLookIntoIsRefused() throws {
        func peer(_ path: String) -> GeoCluePeer {
            let units = PeerProcess.units(ofCgroup: path)
            let facts = ProcessFacts(pinned: true, systemUnit: units.system, userUnit: units.user, sandbox: nil)
            return GeoCluePeer(busName: ":1.42", principal: Principal(uid: 1000, gid: 1000, groups: nil, pid: 4242, process: facts))
        }
        let scoped = peer("/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.gnome.Maps-4242.scope")
        #expect(throws: Principal.Unvouched.self) { try scoped.desktopId(claimed: "org.gnome.Maps").get() }
        let host = peer("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Maps-4242.scope")
        #expect(try host.desktopId(claimed: "org.gnome.Maps").get() == "org.gnome.Maps")
    }
}
