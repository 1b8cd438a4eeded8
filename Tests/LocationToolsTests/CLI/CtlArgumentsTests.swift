import Testing
@testable import LocationValues
@testable import LocationTools

@Suite struct CtlArgumentsTests {
    static func action(_ args: [String]) -> CtlInvocation.Action? {
        try? CtlArguments.parse(args).get().action
    }

    static let accepted: [([String], CtlInvocation.Action)] = [
        (["status"], .request(.status(client: nil))),
        (["status", "logger"], .request(.status(client: "logger"))),
        (["services", "on"], .request(.command(.services(on: true)))),
        (["services", "off"], .request(.command(.services(on: false)))),
        (["authorize", "logger", "never"], .request(.command(.authorize(client: "logger", status: .never)))),
        (["authorize", "logger", "ask"], .request(.command(.authorize(client: "logger", status: .ask)))),
        (["authorize", "logger", "while-using"], .request(.command(.authorize(client: "logger", status: .whileUsing)))),
        (["authorize", "logger", "always"], .request(.command(.authorize(client: "logger", status: .always)))),
        (["accuracy", "logger", "full"], .request(.command(.accuracy(client: "logger", full: true)))),
        (["accuracy", "logger", "reduced"], .request(.command(.accuracy(client: "logger", full: false)))),
        (["request", "logger", "while-using"], .request(.command(.request(client: "logger", kind: .whileUsing)))),
        (["request", "logger", "always"], .request(.command(.request(client: "logger", kind: .always)))),
        (["prompts"], .request(.prompts)),
        (["report"], .request(.report(client: nil, since: nil))),
        (["report", "logger", "--since", "2h"], .request(.report(client: "logger", since: 7200))),
        (["report", "--since", "90"], .request(.report(client: nil, since: 90))),
        (["answer", "logger", "allow-once"], .request(.command(.answer(client: "logger", answer: .allowOnce)))),
        (["answer", "logger", "allow-while-using"], .request(.command(.answer(client: "logger", answer: .allowWhileUsing)))),
        (["answer", "logger", "deny"], .request(.command(.answer(client: "logger", answer: .deny)))),
        (["answer", "logger", "allow"], .request(.command(.answer(client: "logger", answer: .allow)))),
        (["answer", "logger", "keep-while-using"], .request(.command(.answer(client: "logger", answer: .keepWhileUsing)))),
        (["answer", "logger", "change-to-always"], .request(.command(.answer(client: "logger", answer: .changeToAlways)))),
        (
            ["answer", "logger", "allow-while-using", "--approximate"],
            .request(.command(.answer(client: "logger", answer: .allowWhileUsing, precise: false)))
        ),
        (
            ["answer", "--approximate", "logger", "allow-once"],
            .request(.command(.answer(client: "logger", answer: .allowOnce, precise: false)))
        ),
        (["reset", "logger"], .request(.command(.reset(client: "logger")))),
        (["share", "logger"], .request(.command(.share(client: "logger")))),
        (["request-full-accuracy", "logger", "survey"],
         .request(.command(.requestFullAccuracy(client: "logger", purpose: "survey")))),
        (["session", "logger", "begin"], .request(.command(.session(client: "logger", inUse: true)))),
        (["session", "logger", "end"], .request(.command(.session(client: "logger", inUse: false)))),
        (["start", "logger"], .request(.command(.start(client: "logger")))),
        (["stop", "logger"], .request(.command(.stop(client: "logger")))),
        (["locate", "logger"], .request(.command(.locate(client: "logger", timeout: nil)))),
        (["locate", "logger", "--timeout", "10"], .request(.command(.locate(client: "logger", timeout: 10)))),
        (["locate", "--timeout=2.5", "logger"], .request(.command(.locate(client: "logger", timeout: 2.5)))),
        (["watch"], .request(.watch(client: nil))),
        (["watch", "logger"], .request(.watch(client: "logger"))),
        (["tail"], .tail(.init(target: .client(nil)))),
        (["tail", "logger", "-n", "20", "-f"], .tail(.init(target: .client("logger"), lines: 20, follow: true))),
        (["tail", "-fn", "5"], .tail(.init(target: .client(nil), lines: 5, follow: true))),
        (["tail", "-n0", "--follow", "logger"], .tail(.init(target: .client("logger"), lines: 0, follow: true))),
        (["tail", "--lines=3", "/var/log/locationd/logger.jsonl"],
         .tail(.init(target: .file("/var/log/locationd/logger.jsonl"), lines: 3))),
        (["tail", "old.jsonl"], .tail(.init(target: .file("old.jsonl")))),
        (["export", "log.jsonl", "--format", "gpx"], .export(.init(log: "log.jsonl", format: .gpx))),
        (["export", "log.jsonl", "--format=GeoJSON", "-o", "x.json"],
         .export(.init(log: "log.jsonl", format: .geojson, output: "x.json"))),
        (["export", "-", "--format", "kml", "--gap", "300"], .export(.init(log: "-", format: .kml, gap: 300))),
        (["export", "log.jsonl", "--output", "walk.csv"], .export(.init(log: "log.jsonl", format: .csv, output: "walk.csv"))),
        (["export", "log.jsonl", "-o", "walk.geojson", "--line"],
         .export(.init(log: "log.jsonl", format: .geojson, output: "walk.geojson", line: true))),
        (["summary", "logger.jsonl"], .summary(.init(logs: ["logger.jsonl"], gap: 10))),
        (["summary", "a.jsonl.1", "a.jsonl", "--gap", "30"], .summary(.init(logs: ["a.jsonl.1", "a.jsonl"], gap: 30))),
        (["--json", "summary", "-"], .summary(.init(logs: ["-"]))),
        (["plot", "a.jsonl", "-o", "walk.svg"], .plot(.init(logs: ["a.jsonl"], gap: 10, output: "walk.svg"))),
        (["plot", "a.jsonl.1", "a.jsonl", "--output=-", "--gap=5"], .plot(.init(logs: ["a.jsonl.1", "a.jsonl"], gap: 5, output: "-"))),
        (
            ["plot", "a.jsonl", "-o", "s.svg", "--reference", "35.6811990,139.7670669"],
            .plot(.init(logs: ["a.jsonl"], output: "s.svg", reference: .mark(latitude: 35.6811990, longitude: 139.7670669, altitude: nil)))
        ),
        (
            ["summary", "a.jsonl", "--reference=-33.5, 151.25 ,12.5"],
            .summary(.init(logs: ["a.jsonl"], reference: .mark(latitude: -33.5, longitude: 151.25, altitude: 12.5)))
        ),
        (["summary", "a.jsonl", "--reference", "mean"], .summary(.init(logs: ["a.jsonl"], reference: .mean))),
        (["help"], .help(command: nil)),
        (["help", "authorize"], .help(command: "authorize")),
        (["authorize", "--help"], .help(command: "authorize")),
        (["-h", "tail"], .help(command: "tail")),
        (["--help"], .help(command: nil)),
        (["--version"], .version),
        (["--", "status", "-weird-client"], .request(.status(client: "-weird-client"))),
    ]

    @Test(arguments: accepted)
    func parsesEveryCommand(args: [String], expected: CtlInvocation.Action) {
        #expect(Self.action(args) == expected, "\(args)")
    }

    @Test func everyCommandOfTheSpecHasAParserAndAHelpPage() {
        let spec = [
            "status", "services", "authorize", "accuracy", "request", "prompts", "answer", "share", "reset",
            "request-full-accuracy", "session", "start", "stop", "locate", "watch", "report", "tail", "export",
            "summary", "plot",
        ]
        #expect(CtlUsage.commandNames == spec)
        for name in spec {
            let help = CtlUsage.help(for: name)
            #expect(help.contains("usage: locationctl [--socket PATH] [--json] \(name)"), "\(name)")
            #expect(help.contains("Exit status"))
            #expect(Self.action([name, "--help"]) == .help(command: name))
            #expect(Self.action(["help", name]) == .help(command: name))
        }
        #expect(CtlUsage.overview.contains("request-full-accuracy"))
    }

    @Test func socketComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        #expect(try CtlArguments.parse(["status"]).get().socketPath == "/run/locationd/control.sock")
        let env = ["LOCATIOND_SOCKET": "/tmp/l.sock"]
        #expect(try CtlArguments.parse(["status"], environment: env).get().socketPath == "/tmp/l.sock")
        #expect(try CtlArguments.parse(["--socket", "/a.sock", "status"], environment: env).get().socketPath == "/a.sock")
        #expect(try CtlArguments.parse(["status", "--socket=/b.sock"], environment: env).get().socketPath == "/b.sock")
        #expect(try CtlArguments.parse(["status"], environment: ["LOCATIOND_SOCKET": ""]).get().socketPath
            == "/run/locationd/control.sock")
    }

    @Test func jsonMayComeBeforeOrAfterTheCommand() throws {
        #expect(try CtlArguments.parse(["--json", "status"]).get().json)
        #expect(try CtlArguments.parse(["watch", "logger", "--json"]).get().json)
        #expect(try !CtlArguments.parse(["watch"]).get().json)
    }

    static let refused: [([String], String, String?)] = [
        ([], "missing command", nil),
        (["stauts"], "did you mean \"status\"", nil),
        (["frobnicate"], "unknown command \"frobnicate\"", nil),
        (["--frob"], "unknown option --frob", nil),
        (["help", "atuhorize"], "did you mean \"authorize\"", nil),
        (["--socket"], "--socket needs a path", nil),
        (["services"], "missing on|off", "services"),
        (["services", "maybe"], "services cannot be \"maybe\"", "services"),
        (["authorize", "logger"], "missing STATUS", "authorize"),
        (["authorize", "logger", "whileusing"], "did you mean \"while-using\"", "authorize"),
        (["authorize", "logger", "restricted"], "[policy] restricted", "authorize"),
        (["authorize", "logger", "never", "now"], "unexpected argument \"now\"", "authorize"),
        (["accuracy", "logger", "precise"], "use full, reduced", "accuracy"),
        (["request", "logger", "alwyas"], "did you mean \"always\"", "request"),
        (["answer", "logger"], "missing ANSWER", "answer"),
        (["answer", "logger", "alow-once"], "did you mean \"allow-once\"", "answer"),
        (["share"], "missing CLIENT", "share"),
        (["request-full-accuracy", "logger"], "missing KEY", "request-full-accuracy"),
        (["session", "logger", "start"], "session cannot be \"start\"", "session"),
        (["start"], "missing CLIENT", "start"),
        (["stop", "a", "b"], "unexpected argument \"b\"", "stop"),
        (["locate", "logger", "--timeout"], "--timeout needs a value", "locate"),
        (["locate", "logger", "--timeout", "soon"], "--timeout must be a number", "locate"),
        (["locate", "logger", "--timeout", "0"], "above 0", "locate"),
        (["locate", "logger", "--timout", "3"], "did you mean \"--timeout\"", "locate"),
        (["prompts", "now"], "unexpected argument \"now\"", "prompts"),
        (["watch", "-f"], "unknown option -f for watch", "watch"),
        (["tail", "-n", "many"], "-n must be a whole number", "tail"),
        (["tail", "-n", "-3"], "-n must be a whole number", "tail"),
        (["tail", "--folow"], "did you mean \"--follow\"", "tail"),
        (["tail", "-f=yes"], "unknown option", "tail"),
        (["export"], "missing LOG", "export"),
        (["export", "log.jsonl"], "missing --format", "export"),
        (["export", "log.jsonl", "--format", "gpz"], "did you mean \"gpx\"", "export"),
        (["export", "log.jsonl", "-o", "x.txt"], "missing --format", "export"),
        (["export", "log.jsonl", "--format", "gpx", "--gap", "0"], "--gap must be", "export"),
        (["authorize", "", "never"], "CLIENT must not be empty", "authorize"),
        (["export", "log.jsonl", "--format", "gpx", "--line"], "--line is for --format geojson", "export"),
        (["summary"], "missing LOG", "summary"),
        (["summary", "a.jsonl", "--gap", "-1"], "--gap must be", "summary"),
        (["summary", "a.jsonl", "--gpa", "5"], "did you mean \"--gap\"", "summary"),
        (["summary", "-", "-"], "standard input (-) can be read only once", "summary"),
        (["plot", "a.jsonl"], "missing -o FILE", "plot"),
        (["plot", "-o", "x.svg"], "missing LOG", "plot"),
        (["summary", "a.jsonl", "--reference", "35.68"], "--reference must be LAT,LON[,ALT]", "summary"),
        (["summary", "a.jsonl", "--reference", "1,2,3,4"], "--reference must be LAT,LON[,ALT]", "summary"),
        (["summary", "a.jsonl", "--reference", "middle"], "--reference must be LAT,LON[,ALT]", "summary"),
        (["summary", "a.jsonl", "--reference", "91,0"], "latitude must be a number of degrees from -90 to 90, not \"91\"", "summary"),
        (["summary", "a.jsonl", "--reference", "0,east"], "longitude must be a number of degrees from -180 to 180", "summary"),
        (["plot", "a.jsonl", "-o", "x.svg", "--reference", "0,0,nan"], "altitude must be a number of metres", "plot"),
        (["plot", "a.jsonl", "-o", "x.svg", "--reference", ",0"], "latitude must be", "plot"),
        (["summary", "a.jsonl", "--reference"], "--reference", "summary"),
    ]

    @Test(arguments: refused)
    func refusesBadCommandLinesWithTheSynopsis(args: [String], words: String, command: String?) {
        switch CtlArguments.parse(args) {
        case .success(let invocation):
            Issue.record("accepted \(args) as \(invocation)")
        case .failure(let error):
            #expect(error.message.contains(words), "\(args): \(error.message)")
            #expect(error.command == command)
            #expect(error.exitCode == .usage)
            let text = error.description
            #expect(text.hasPrefix("locationctl: "))
            if let command, let page = CtlUsage.page(command) {
                #expect(text.contains("usage: locationctl [--socket PATH] [--json] \(page.synopsis)"))
                #expect(text.contains("locationctl help \(command)"))
            } else {
                #expect(text.contains("usage: locationctl [--socket PATH] [--json] COMMAND"))
            }
        }
    }

    @Test func exitCodesMatchTheSpec() {
        #expect(ExitCode.ok.rawValue == 0)
        #expect(ExitCode.refused.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 2)
        #expect(ExitCode.unreachable.rawValue == 3)
        #expect(ExitCode.configuration.rawValue == 78, "EX_CONFIG, which the unit does not restart")
    }

    @Test func suggestionsAreOnlyMadeForPlausibleTypos() {
        #expect(Suggestion.closest(to: "whileusing", among: ["never", "ask", "while-using", "always"]) == "while-using")
        #expect(Suggestion.closest(to: "xyzzy", among: ["never", "ask", "while-using", "always"]) == nil)
        #expect(Suggestion.closest(to: "of", among: ["on", "off"]) == "off")
        #expect(Suggestion.closest(to: "req", among: CtlUsage.commandNames) == nil)  // request or request-full-accuracy
        #expect(Suggestion.closest(to: "expo", among: CtlUsage.commandNames) == "export")
    }
}

@Suite struct CtlCompletionArgumentTests {
    @Test func printsACompletionScriptForBashOrZshOnly() throws {
        #expect(try CtlArguments.parse(["--generate-completion-script", "zsh"]).get().action == .completionScript(.zsh))
        #expect(try CtlArguments.parse(["--generate-completion-script", "bash"]).get().action == .completionScript(.bash))
        guard case .failure(let error) = CtlArguments.parse(["--generate-completion-script", "fish"]) else {
            Issue.record("fish was accepted")
            return
        }
        #expect(error.message.contains("use bash or zsh"))
    }
}
