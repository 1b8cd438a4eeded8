#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import Testing
import TestSupport

/// The GeoClue face's edges (#47), in the bed of `GeoClueClientRunTests`: odd and
/// oversized `DesktopId`s are refused where they come in, the daemon's memory,
/// `status`, `prompts` and another app's positions stay as they were, the prompt of
/// an app that left is withdrawn, and a `never` survives a bad row in each saved file.
extension GeoClueClientRunTests {
    @Test(.timeLimit(.minutes(5)))
    func oddAndOversizedDesktopIdsAreRefusedAtTheEdgeAndALeavingAppsPromptIsWithdrawn() async throws {
        let bed = try await GeoClueBed("edges")
        defer { bed.stop() }
        // Another app, allowed and served, whose positions must go on through all of it.
        let served = try bed.client("served", label: "served")
        defer { served.kill() }
        try await bed.allow(Self.ownClient("served"))
        try #require(await waitUntil(timeout: 30) { !GeoClueBed.updates(served.stdout).isEmpty }, "\(served.stdout)\n\(bed.daemon.stderr)")
        let pid = bed.daemon.pid
        let before = try #require(ProcFS.residentBytes(of: pid))

        // Five DesktopIds of 20 MB (before the rule one grew the daemon by 130 MB), then the odd ones.
        let flood = try bed.client("org.example.Edge", ["oversize=20000000x5", "odd=yes"], label: "flood")
        defer { flood.kill() }
        try #require(
            await waitUntil(timeout: 120) { GeoClueBed.said(flood.stdout).contains { $0["started"] != nil || $0["error"] != nil } },
            "\(flood.stdout)\n\(bed.daemon.stderr)")
        let said = GeoClueBed.said(flood.stdout)
        let refused = said.filter { $0["refused"] != nil }
        #expect(said.filter { $0["accepted"] != nil }.isEmpty, "\(said)")
        #expect(refused.count == 5 + 7, "\(said)")
        for refusal in refused {
            #expect(refusal["refused"]?.stringValue == "org.freedesktop.DBus.Error.InvalidArgs", "\(refusal)")
            #expect(refusal["message"]?.stringValue?.contains("1 to 255 bytes") == true, "\(refusal)")
        }
        let after = try #require(ProcFS.residentBytes(of: pid))
        #expect(after - before < 48 << 20, "VmRSS grew from \(before >> 20) MiB to \(after >> 20) MiB")

        // The app started with its own id: one prompt, shown as one line; status answers.
        let name = Self.ownClient("org_example_Edge")
        let daemon = bed.daemon
        try #require(await waitUntil(timeout: 30) { daemon.stderr.contains("\(name) asks (while-using)") }, "\(daemon.stderr)")
        let prompts = try await bed.plane.ctl(["prompts"])
        #expect(prompts.status == 0, "\(prompts.stderr)")
        #expect(prompts.stdout.split(separator: "\n").filter { $0.hasPrefix("PROMPT") } == ["PROMPT  \(name) asks for while-using authorization"])
        let status = try await bed.plane.ctl(["status"])
        #expect(status.status == 0 && status.stdout.contains("GeoClue app org.example.Edge"), "\(status.stdout)\(status.stderr)")
        #expect(!status.stdout.unicodeScalars.contains { $0 != "\n" && PeerText.isHidden($0) })
        let seen = GeoClueBed.updates(served.stdout).count
        try #require(await waitUntil(timeout: 30) { GeoClueBed.updates(served.stdout).count >= seen + 3 }, "\(served.stdout)")

        // A watcher, then the app leaves the bus: its prompt is withdrawn, the app stays known as ask.
        let watch = try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", bed.sandbox.socketPath, "watch", name], environment: .only([:]),
            stdoutPath: bed.sandbox.file("watch.out"))
        defer { watch.kill() }
        try #require(await waitUntil(timeout: 30) { watch.stdout.contains("prompt while-using") }, "\(watch.stdout)")
        flood.kill()
        try #require(
            await waitUntil(timeout: 30) { daemon.stderr.contains("\(name)'s while-using prompt withdrawn, unanswered: its app left the bus") },
            "\(daemon.stderr)")
        try #require(await waitUntil(timeout: 30) { watch.stdout.contains("\(name) prompt while-using withdrawn: its app left the bus") }, "\(watch.stdout)")
        #expect(try await bed.plane.ctl(["prompts"]).stdout == "No prompts are waiting.\n")
        let left = try await bed.plane.status(of: name)
        #expect(left.authorization.stored == .ask && left.prompt == nil, "\(left)")
    }

    /// An app the operator set to `never` stays `never` across a restart whose two saved files each
    /// got a bad row: a 5 MB desktop id before the app's row in `geoclue-apps.json`, a client with
    /// a status no build knows in `state.json` (before #47 the first dropped the whole list).
    @Test(.timeLimit(.minutes(5)))
    func aNeverStaysNeverAcrossARestartWithABadRowInEachSavedFile() async throws {
        var bed = try await GeoClueBed("never")
        defer { bed.stop() }
        let name = Self.ownClient("org.example.Never")
            .replacing(".", with: "_")
        let app = try bed.client("org.example.Never", label: "never")
        let daemon = bed.daemon
        try #require(await waitUntil(timeout: 30) { daemon.stderr.contains("\(name) asks (while-using)") }, "\(daemon.stderr)")
        #expect(try await bed.plane.ctl(["answer", name, "deny"]).status == 0)
        app.kill()
        let apps = bed.sandbox.stateDirectory + "/geoclue-apps.json"
        let state = bed.sandbox.stateDirectory + "/state.json"
        try await bed.restart {
            let list = try #require(FileIO.text(apps))
            let junk = #"{"name":"gc-junk-1","desktopId":"\#(String(repeating: "j", count: 5 << 20))","uid":1},"#
            try FileIO.write(apps, list.replacing("{\"apps\":[\n", with: "{\"apps\":[\n" + junk + "\n"))
            let saved = try #require(FileIO.text(state))
            let bad = #"{"name":"gc-bad-1","status":"sometimes"},"#
            try FileIO.write(state, saved.replacing(#""clients":["#, with: #""clients":["# + bad))
        }
        let restarted = bed.daemon
        #expect(restarted.stderr.contains("geoclue-apps.json: app 0 skipped"), "\(restarted.stderr)")
        #expect(restarted.stderr.contains("a saved client is skipped: at clients[0]"), "\(restarted.stderr)")
        #expect(try await bed.plane.status(of: name).authorization.stored == .never)
        // The app comes back: refused at Start, no new prompt.
        let again = try bed.client("org.example.Never", label: "never-again")
        defer { again.kill() }
        try #require(await waitUntil(timeout: 30) { GeoClueBed.said(again.stdout).contains { $0["error"] != nil } }, "\(again.stdout)")
        let refusal = try #require(GeoClueBed.said(again.stdout).first { $0["error"] != nil })
        #expect(refusal["error"]?.stringValue == "org.freedesktop.DBus.Error.AccessDenied", "\(refusal)")
        #expect(try await bed.plane.ctl(["prompts"]).stdout == "No prompts are waiting.\n")
    }

    /// `Stop` with the prompt still pending withdraws it as leaving does; the app, still on the bus,
    /// asks again with its next `Start`.
    @Test(.timeLimit(.minutes(5)))
    func aStopWithThePromptPendingWithdrawsIt() async throws {
        let bed = try await GeoClueBed("stop-withdraws")
        defer { bed.stop() }
        let name = Self.ownClient("stopper")
        let app = try bed.client("stopper", label: "stopper")
        defer { app.kill() }
        let daemon = bed.daemon
        try #require(await waitUntil(timeout: 30) { daemon.stderr.contains("\(name) asks (while-using)") }, "\(daemon.stderr)")
        // The prompt opens inside Start, before its reply: the app stops only what it knows it started.
        try #require(await waitUntil(timeout: 30) { GeoClueBed.said(app.stdout).contains { $0["started"] != nil } }, "\(app.stdout)")
        app.signal(SIGUSR2)
        try #require(
            await waitUntil(timeout: 30) { daemon.stderr.contains("\(name)'s while-using prompt withdrawn, unanswered: its app stopped (Stop)") },
            "\(app.stdout)\n\(daemon.stderr)")
        #expect(try await bed.plane.ctl(["prompts"]).stdout == "No prompts are waiting.\n")
        #expect(try await bed.plane.status(of: name).authorization.stored == .ask)
    }
}
