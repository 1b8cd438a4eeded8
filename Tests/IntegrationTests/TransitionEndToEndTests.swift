import LocationCore
import LocationProtocol
import LocationValues
import LocationDaemon
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Every row of docs/authorization.md §3, reached with the built `locationctl` against the
/// running daemon (gpsd feeding it through gpsfake): the command's exit
/// status and reply, the state `status --json` shows afterwards, and the
/// events a watcher saw for that command.
///
/// One daemon serves the whole table: each row has a client of its own.
/// Events are attributed to commands without timing: after every command a
/// *sentinel* client's accuracy is flipped, and the watch stream is ordered,
/// so the events between two sentinel events are the ones the command
/// between them caused. The table's event column is compared as what opens
/// or changes: `authorization` events, prompts opening, and client errors
/// other than `location-unknown` (a prompt closing and locations are not
/// counted).
@Suite(
    .timeLimit(.minutes(10)),
    .serialized, .enabled(if: PackagePaths.productMissing("locationd") == nil, "locationd is not built"),
    .enabled(if: GPSFake.isAvailable, "gpsfake, gpsd or python3-gps is missing"))
struct TransitionEndToEndTests {
    /// What a row expects of its client afterwards.
    struct Expected {
        var status: AuthorizationStatus
        var stored: AuthorizationStatus? = nil
        var once = false
        var provisional = false
        var accuracy = "full"
        var prompt: PromptKind? = nil
        var inUse: Bool? = nil
    }

    /// One row: a client, the commands that bring it to the row's "from", the
    /// row's input, and what should follow.
    struct Row {
        var spec: String
        var client: String
        var config: String
        var setup: [[String]] = []
        var input: [String]
        var exit: Int32 = 0
        var error: String? = nil
        var changed: Bool? = nil
        var expected: Expected
        /// Event kinds the input causes for the client: `authorization`, `prompt` (opened), `error:CODE`.
        var events: [String]
    }

    static func rows() -> [Row] {
        typealias C = ControlPlane
        return [
            Row(spec: "ask | request while-using | prompt (while-using)", client: "t01", config: C.client("t01"),
                input: ["request", "t01", "while-using"], changed: true, expected: .init(status: .ask, prompt: .whileUsing), events: ["prompt"]),
            Row(spec: "ask | request always | prompt (always)", client: "t02", config: C.client("t02"),
                input: ["request", "t02", "always"], changed: true, expected: .init(status: .ask, prompt: .always), events: ["prompt"]),
            Row(spec: "never | request | nothing, reply says why", client: "t03", config: C.client("t03", authorization: "never"),
                input: ["request", "t03", "while-using"], changed: false, expected: .init(status: .never), events: []),
            Row(spec: "always | request always | nothing, reply says why", client: "t03b", config: C.client("t03b", authorization: "always"),
                input: ["request", "t03b", "always"], changed: false, expected: .init(status: .always), events: []),
            Row(spec: "any | request without usage | missing-usage-description", client: "t04",
                config: C.client("t04", usage: false, usageAlways: false),
                input: ["request", "t04", "while-using"], exit: 1, error: "missing-usage-description", expected: .init(status: .ask), events: []),
            Row(spec: "any | request always without usage_always | missing-usage-description", client: "t04b",
                config: C.client("t04b", usageAlways: false),
                input: ["request", "t04b", "always"], exit: 1, error: "missing-usage-description", expected: .init(status: .ask), events: []),
            Row(spec: "prompt while-using | allow-while-using | while-using", client: "t05", config: C.client("t05"),
                setup: [["request", "t05", "while-using"]], input: ["answer", "t05", "allow-while-using"], changed: true,
                expected: .init(status: .whileUsing), events: ["authorization"]),
            Row(spec: "prompt always | allow-once | while-using + once", client: "t06", config: C.client("t06"),
                setup: [["request", "t06", "always"]], input: ["answer", "t06", "allow-once"], changed: true,
                expected: .init(status: .whileUsing, once: true), events: ["authorization"]),
            Row(spec: "prompt while-using | deny | never", client: "t07", config: C.client("t07"),
                setup: [["request", "t07", "while-using"]], input: ["answer", "t07", "deny"], changed: true,
                expected: .init(status: .never), events: ["authorization"]),
            Row(spec: "prompt always | allow-while-using | always + provisional", client: "t08", config: C.client("t08"),
                setup: [["request", "t08", "always"]], input: ["answer", "t08", "allow-while-using"], changed: true,
                expected: .init(status: .always, provisional: true), events: ["authorization"]),
            Row(spec: "while-using (permanent) | request always | upgrade prompt at once", client: "t12", config: C.client("t12"),
                setup: [["request", "t12", "while-using"], ["answer", "t12", "allow-while-using"]], input: ["request", "t12", "always"],
                changed: true, expected: .init(status: .whileUsing, prompt: .alwaysUpgrade), events: ["prompt"]),
            Row(spec: "upgrade prompt | change-to-always | always", client: "t11", config: C.client("t11"),
                setup: [["request", "t11", "while-using"], ["answer", "t11", "allow-while-using"], ["request", "t11", "always"]],
                input: ["answer", "t11", "change-to-always"], changed: true, expected: .init(status: .always), events: ["authorization"]),
            Row(spec: "while-using + once | request always | nothing", client: "t13", config: C.client("t13"),
                setup: [["request", "t13", "while-using"], ["answer", "t13", "allow-once"]], input: ["request", "t13", "always"],
                changed: false, expected: .init(status: .whileUsing, once: true), events: []),
            Row(spec: "ask, first share | share | share prompt, status unchanged", client: "t24", config: C.client("t24", inUse: false),
                input: ["share", "t24"], changed: true, expected: .init(status: .ask, prompt: .share, inUse: false), events: ["prompt"]),
            Row(spec: "share prompt | allow | while-using + once, put in use", client: "t24b", config: C.client("t24b", inUse: false),
                setup: [["share", "t24b"]], input: ["answer", "t24b", "allow"], changed: true,
                expected: .init(status: .whileUsing, once: true, inUse: true), events: ["authorization"]),
            Row(spec: "share prompt | deny | status unchanged, prompt closed", client: "t24c", config: C.client("t24c", inUse: false),
                setup: [["share", "t24c"]], input: ["answer", "t24c", "deny"], changed: true,
                expected: .init(status: .ask, inUse: false), events: []),
            Row(spec: "ask, share allowed before | share | while-using + once, put in use", client: "t15", config: C.client("t15", inUse: false),
                setup: [["share", "t15"], ["answer", "t15", "allow"], ["authorize", "t15", "ask"], ["session", "t15", "end"]],
                input: ["share", "t15"], changed: true, expected: .init(status: .whileUsing, once: true, inUse: true), events: ["authorization"]),
            Row(spec: "once | share | while-using + once (no change)", client: "t15b", config: C.client("t15b"),
                setup: [["request", "t15b", "while-using"], ["answer", "t15b", "allow-once"]], input: ["share", "t15b"],
                expected: .init(status: .whileUsing, once: true, inUse: true), events: []),
            Row(spec: "never | share | denied", client: "t16", config: C.client("t16", authorization: "never"),
                input: ["share", "t16"], exit: 1, error: "denied", expected: .init(status: .never), events: []),
            Row(spec: "always + provisional | authorize while-using | while-using, flags cleared", client: "t17", config: C.client("t17"),
                setup: [["request", "t17", "always"], ["answer", "t17", "allow-while-using"]], input: ["authorize", "t17", "while-using"],
                changed: true, expected: .init(status: .whileUsing), events: ["authorization"]),
            Row(spec: "while-using + once | authorize ask | ask", client: "t17b", config: C.client("t17b"),
                setup: [["request", "t17b", "while-using"], ["answer", "t17b", "allow-once"]], input: ["authorize", "t17b", "ask"],
                changed: true, expected: .init(status: .ask), events: ["authorization"]),
            Row(spec: "never | authorize never | unchanged, no event", client: "t17c", config: C.client("t17c", authorization: "never"),
                input: ["authorize", "t17c", "never"], changed: false, expected: .init(status: .never), events: []),
            Row(spec: "restricted | authorize | restricted", client: "t18", config: C.client("t18"),
                input: ["authorize", "t18", "always"], exit: 1, error: "restricted", expected: .init(status: .restricted), events: []),
            Row(spec: "restricted | answer | restricted", client: "t18", config: "",
                input: ["answer", "t18", "allow-once"], exit: 1, error: "restricted", expected: .init(status: .restricted), events: []),
            Row(spec: "restricted | share | restricted", client: "t18", config: "",
                input: ["share", "t18"], exit: 1, error: "restricted", expected: .init(status: .restricted), events: []),
            Row(spec: "reduced | request-full-accuracy KEY in use | full-accuracy prompt", client: "t20",
                config: C.client("t20", authorization: "while-using", precise: false),
                input: ["request-full-accuracy", "t20", "survey"], changed: true,
                expected: .init(status: .whileUsing, accuracy: "reduced", prompt: .fullAccuracy), events: ["prompt"]),
            Row(spec: "full-accuracy prompt | allow | temporary-full", client: "t21", config: C.client("t21", authorization: "while-using", precise: false),
                setup: [["request-full-accuracy", "t21", "survey"]], input: ["answer", "t21", "allow"], changed: true,
                expected: .init(status: .whileUsing, accuracy: "temporary-full"), events: ["authorization"]),
            Row(spec: "full-accuracy prompt | deny | stays reduced, prompt closed", client: "t22",
                config: C.client("t22", authorization: "while-using", precise: false),
                setup: [["request-full-accuracy", "t22", "survey"]], input: ["answer", "t22", "deny"],
                expected: .init(status: .whileUsing, accuracy: "reduced"), events: []),
            Row(spec: "any | request-full-accuracy unknown KEY | unknown-purpose", client: "t23",
                config: C.client("t23", authorization: "while-using", precise: false),
                input: ["request-full-accuracy", "t23", "nokey"], exit: 1, error: "unknown-purpose",
                expected: .init(status: .whileUsing, accuracy: "reduced"), events: []),
            Row(spec: "full | request-full-accuracy | nothing, no prompt", client: "t23b", config: C.client("t23b", authorization: "while-using"),
                input: ["request-full-accuracy", "t23b", "survey"], changed: false,
                expected: .init(status: .whileUsing), events: []),
            Row(spec: "any | request-full-accuracy out of use | not-in-use", client: "t23c",
                config: C.client("t23c", authorization: "while-using", precise: false, inUse: false),
                input: ["request-full-accuracy", "t23c", "survey"], exit: 1, error: "not-in-use",
                expected: .init(status: .whileUsing, accuracy: "reduced", inUse: false), events: []),
        ]
    }

    /// Clients whose rows need time or fixes: always + provisional meeting a
    /// fix (upgrade prompt), the upgrade prompt answered keep-while-using,
    /// Allow Once ending out of use, Allow Once ending with a restart.
    static let timedClients = [
        ControlPlane.client("t09", inUse: false), ControlPlane.client("t10", inUse: false),
        ControlPlane.client("t14", onceGrace: 0), ControlPlane.client("t14b"),
    ]

    @Test func everyTransitionOfTheTableIsReachableFromTheCommandLine() async throws {
        let sandbox = try DaemonSandbox("transitions")
        let plane = ControlPlane(sandbox: sandbox)
        let track = try await sandbox.longTrack(sentences: 40_000)
        let fake = try await GPSFake.start(log: track, options: .init(cycle: 0.002, once: true, gated: false))
        let rows = Self.rows()
        let configs = rows.map(\.config).filter { !$0.isEmpty } + Self.timedClients
            + [ControlPlane.client("sentinel", authorization: "never"), ControlPlane.client("bystander", authorization: "never")]
        try plane.writeConfig(port: fake.port, clients: configs, restricted: ["t18"])
        var daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { FileIO.exists(sandbox.socketPath) }, "\(daemon.stderr)")

        let watchOut = sandbox.file("watch.jsonl")
        let watcher = try ChildProcess(
            [PackagePaths.product("locationctl"), "--socket", sandbox.socketPath, "--json", "watch"], stdoutPath: watchOut,
            stderrPath: watchOut + ".err")
        try #require(await waitUntil(timeout: 60) { watcher.stdout.contains("\"watching\"") })

        // The sentinel flips its accuracy: an authorization event every time, whatever the
        // services switch says (services off hides a change of status, not of accuracy).
        var sentinelFlips = 0
        var inputSegments: [(row: Row, segment: Int)] = []
        func sentinel() async throws {
            sentinelFlips += 1
            let (status, _, _) = try await plane.ctl(["accuracy", "sentinel", sentinelFlips % 2 == 1 ? "reduced" : "full"])
            #expect(status == 0)
        }
        // Segment 0 is the watch's initial state alone.
        try await sentinel()

        for row in rows {
            for step in row.setup {
                let (status, _, stderr) = try await plane.ctl(step)
                #expect(status == 0, "\(row.spec): setup \(step.joined(separator: " ")): \(stderr)")
                try await sentinel()
            }
            let (status, reply) = try await plane.reply(row.input)
            #expect(status == row.exit, "\(row.spec): exit status")
            if let error = row.error {
                #expect(reply?["error"]?["code"]?.stringValue == error, "\(row.spec): \(reply?.serialized ?? "no reply")")
            } else {
                #expect(reply?["ok"] == true, "\(row.spec): \(reply?.serialized ?? "no reply")")
                if let changed = row.changed { #expect(reply?["changed"]?.boolValue == changed, "\(row.spec): changed") }
                #expect(reply?["message"]?.stringValue?.isEmpty == false, "\(row.spec): the reply says what happened")
            }
            inputSegments.append((row, sentinelFlips))
            try await sentinel()
            try await Self.check(try await plane.status(of: row.client), row.expected, row.spec)
        }

        // always + provisional meets a fix it would get only because of always: no delivery, an upgrade prompt.
        for client in ["t09", "t10"] {
            #expect(try await plane.ctl(["request", client, "always"]).status == 0)
            #expect(try await plane.ctl(["answer", client, "allow-while-using"]).status == 0)
        }
        try await sentinel()
        let upgraded = await waitUntilAsync(timeout: 60) {
            let report = try? await plane.status()
            return ["t09", "t10"].allSatisfy { name in report?.status.clients.first { $0.authorization.client == name }?.prompt?.kind == .alwaysUpgrade }
        }
        #expect(upgraded, "always + provisional and a fix open the upgrade prompt")
        #expect(sandbox.records("t09").isEmpty, "the fix that opened the prompt was not delivered")
        let (keep, _, _) = try await plane.ctl(["answer", "t10", "keep-while-using"])
        #expect(keep == 0)
        try await Self.check(try await plane.status(of: "t10"), .init(status: .whileUsing, inUse: false), "upgrade prompt | keep-while-using")

        // Allow Once ends when the client has been out of use for once_grace (0 s: at the next tick).
        #expect(try await plane.ctl(["request", "t14", "while-using"]).status == 0)
        #expect(try await plane.ctl(["answer", "t14", "allow-once"]).status == 0)
        #expect(try await plane.ctl(["session", "t14", "end"]).status == 0)
        let ended = await waitUntilAsync(timeout: 60) { (try? await plane.status(of: "t14"))?.authorization.status == .ask }
        #expect(ended, "while-using + once | out of use for once_grace | ask")

        // Services off: every client effectively never; on: the stored statuses come back.
        try await sentinel()
        let before = try await plane.status().status.clients.filter { $0.authorization.client != "sentinel" }
        let changing = Set(before.filter { ![.never, .restricted].contains($0.authorization.status) }.map(\.authorization.client))
        #expect(try await plane.ctl(["services", "off"]).status == 0)
        let offSegment = sentinelFlips
        try await sentinel()
        for client in try await plane.status().status.clients where client.authorization.status != .restricted {
            #expect(client.authorization.status == .never, "services off: \(client.authorization.client)")
            #expect(client.authorization.reason == .servicesOff, "services off: \(client.authorization.client) says why")
        }
        #expect(try await plane.ctl(["services", "on"]).status == 0)
        let onSegment = sentinelFlips
        try await sentinel()
        let after = try await plane.status().status.clients.filter { $0.authorization.client != "sentinel" }
        #expect(before.map(\.authorization) == after.map(\.authorization), "services on restores every client")

        // Allow Once ends with a restart.
        #expect(try await plane.ctl(["request", "t14b", "while-using"]).status == 0)
        #expect(try await plane.ctl(["answer", "t14b", "allow-once"]).status == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        #expect(daemon.exitStatus == 0, "\(daemon.stderr)")
        #expect(await watcher.wait(timeout: 60), "the watch ends when the daemon stops")
        #expect(watcher.exitStatus == 3)
        daemon = try sandbox.startDaemon()
        try #require(await waitUntil(timeout: 60) { FileIO.exists(sandbox.socketPath) }, "\(daemon.stderr)")
        try await Self.check(try await plane.status(of: "t14b"), .init(status: .ask), "while-using + once | daemon restart | ask")
        daemon.signal(SIGTERM)
        #expect(await daemon.wait(timeout: 60))
        fake.stop()

        // The events of each input, between its sentinel events.
        let segments = Self.segments(of: watcher.stdout)
        for (row, index) in inputSegments {
            guard index < segments.count else {
                Issue.record("\(row.spec): the watch stream ended early")
                continue
            }
            let kinds = segments[index].filter { $0.client == row.client }.compactMap(\.kind)
            #expect(kinds == row.events, "\(row.spec): events \(kinds)")
        }
        // The services switch: an authorization event for each client whose effective status changed, and only those.
        for (name, index) in [("services off", offSegment), ("services on", onSegment)] where index < segments.count {
            let notified = segments[index].filter { $0.kind == "authorization" }.compactMap(\.client)
            #expect(Set(notified) == changing && notified.count == changing.count, "\(name): events for \(notified.sorted())")
        }
    }

    static func check(_ client: ClientStatus, _ expected: Expected, _ spec: String) async throws {
        let a = client.authorization
        #expect(a.status == expected.status, "\(spec): status \(a.status.rawValue)")
        if let stored = expected.stored { #expect(a.stored == stored, "\(spec): stored") }
        #expect(a.once == expected.once, "\(spec): once")
        #expect(a.provisional == expected.provisional, "\(spec): provisional")
        #expect(a.accuracy.word == expected.accuracy, "\(spec): accuracy \(a.accuracy.word)")
        #expect(client.prompt?.kind == expected.prompt, "\(spec): prompt \(client.prompt?.kind.rawValue ?? "none")")
        if let inUse = expected.inUse { #expect(client.inUse == inUse, "\(spec): in use") }
    }

    /// The watch stream cut at the sentinel's authorization events: segment i
    /// holds the events after the i-th sentinel event and before the next.
    static func segments(of stream: String) -> [[(client: String?, kind: String?)]] {
        var segments: [[(client: String?, kind: String?)]] = [[]]
        // The first sentinel authorization is its line in the initial state, not a flip.
        var snapshotSeen = false
        for line in stream.split(separator: "\n") {
            guard let value = try? JSONValue.parse(Array(line.utf8)), let event = value["event"]?.stringValue else { continue }
            let client = value["client"]?.stringValue
            if client == "sentinel" && event == "authorization" {
                if snapshotSeen { segments.append([]) }
                snapshotSeen = true
                continue
            }
            var kind: String?
            switch event {
            case "authorization": kind = "authorization"
            case "prompt": kind = value["open"] == true ? "prompt" : nil
            case "error": kind = value["code"] == "location-unknown" ? nil : "error:\(value["code"]?.stringValue ?? "?")"
            default: kind = nil
            }
            segments[segments.count - 1].append((client, kind))
        }
        // Segment 0 is the initial state before the first sentinel flip.
        return segments
    }
}
