import LocationCore
import LocationProtocol
import LocationValues
import LocationTools
import Testing
import TestSupport

/// The engine's next steps (`status`'s suggestion) are data that locationctl puts to its reader
/// through its own command table (#36 item 4, #39 item 4).
@Suite(.timeLimit(.minutes(10))) struct NextStepTests {
    static let steps = NextStep.allCases.map { $0.command(client: "logger") }

    @Test(arguments: steps)
    func everyStepTheEngineCanSuggestIsACommandLocationctlParses(command: Command) throws {
        let arguments = NextStepText.arguments(command)
        let invocation = try CtlArguments.parse(arguments).get()
        #expect(invocation.action == .request(.command(command)), "\(arguments)")
        #expect(NextStepText.commandLine(command) == "locationctl " + arguments.joined(separator: " "))
    }

    @Test(arguments: steps)
    func aStepTravelsAsWordsAndComesBackTheSame(command: Command) throws {
        #expect(try Command(words: command.words) == command)
        var client = Samples.status.clients[0]
        client.suggestion = command
        #expect(try ClientStatus(json: client.json).suggestion == command)
    }

    @Test func wordsThatAreNoCommandAreRefused() {
        #expect(throws: ControlDecodeError.self) { try Command(words: ["status"]) }
        #expect(throws: ControlDecodeError.self) { try Command(words: ["authorize", "logger", "sometimes"]) }
        #expect(throws: ControlDecodeError.self) { try Command(words: ["frobnicate"]) }
    }

    @Test func theOperatorIsToldToRunEveryStep() {
        let operator_ = ControlRole(isOperator: true)
        for command in Self.steps {
            #expect(NextStepText.line(command, reader: operator_) == "→ run: " + NextStepText.commandLine(command))
        }
    }

    @Test func anAppIsToldToAskTheOperatorForTheUsersSideAndToRunItsOwn() {
        let app = ControlRole(isOperator: false, apps: ["logger"])
        #expect(
            NextStepText.line(.authorize(client: "logger", status: .whileUsing), reader: app)
                == "→ ask the operator (root or the socket group) to run: locationctl authorize logger while-using")
        #expect(NextStepText.line(.services(on: true), reader: app).hasPrefix("→ ask the operator"))
        #expect(NextStepText.line(.start(client: "logger"), reader: app) == "→ run: locationctl start logger")
        let stranger = ControlRole(isOperator: false)
        #expect(
            NextStepText.line(.start(client: "logger"), reader: stranger)
                == "→ ask logger's app or the operator (root or the socket group) to run: locationctl start logger")
    }

    @Test func anAppIsToldTheFormThatHoldsItsSession() {
        let app = ControlRole(isOperator: false, apps: ["logger"])
        #expect(
            NextStepText.line(.session(client: "logger", inUse: true), reader: app)
                == "→ run: locationctl session logger -- COMMAND... (or: locationctl watch logger --in-use)")
        #expect(
            NextStepText.line(.session(client: "logger", inUse: true), reader: ControlRole(isOperator: true))
                == "→ run: locationctl session logger begin")
        #expect(NextStepText.oneShotSessionRefusal(client: "logger", reader: app)?.contains("session logger -- COMMAND...") == true)
        #expect(NextStepText.oneShotSessionRefusal(client: "logger", reader: ControlRole(isOperator: true)) == nil)
        #expect(NextStepText.oneShotSessionRefusal(client: "logger", reader: ControlRole(isOperator: false)) == nil)
    }

    @Test func theFormsThatHoldASessionParse() throws {
        let held = try CtlArguments.parse(["session", "survey", "--", "gpspipe", "-w", "--json", "-n", "5"]).get()
        #expect(held.action == .session(client: "survey", command: ["gpspipe", "-w", "--json", "-n", "5"]))
        #expect(!held.json, "--json after -- is the command's")
        #expect(try CtlArguments.parse(["watch", "survey", "--in-use"]).get().action == .watchInUse(client: "survey"))
        #expect(try CtlArguments.parse(["watch", "survey"]).get().action == .request(.watch(client: "survey")))
        for wrong in [["session", "survey", "--"], ["session", "--", "ls"], ["session", "survey", "begin", "--", "ls"], ["watch", "--in-use"]] {
            #expect(throws: UsageError.self, "\(wrong)") { try CtlArguments.parse(wrong).get() }
        }
    }

    @Test func anAppsStatusNeverTellsItToRunTheUsersSide() {
        var report = Samples.report
        report.reader = ControlRole(isOperator: false, apps: ["survey"])
        let text = StatusRenderer.render(report)
        #expect(!text.contains("→ run: locationctl authorize"), "\(text)")
        #expect(!text.contains("→ run: locationctl services"), "\(text)")
        #expect(text.contains("→ ask the operator (root or the socket group) to run: locationctl authorize tracker while-using"), "\(text)")
        #expect(text.contains("→ run: locationctl start survey"), "\(text)")
        report.reader = ControlRole(isOperator: true)
        #expect(StatusRenderer.render(report).contains("→ run: locationctl authorize tracker while-using"))
    }

    @Test func theReaderTravelsWithTheStatusAndDisclosureSetsIt() throws {
        let seen = Disclosure(tier: .unprivileged, services: true, apps: ["survey"]).status(Samples.report)
        #expect(seen.reader == ControlRole(isOperator: false, apps: ["survey"]))
        #expect(try StatusReport(json: seen.json).reader == seen.reader)
        #expect(Disclosure(tier: .privileged, services: true).status(Samples.report).reader?.isOperator == true)
    }

    /// locationctl(1) has an entry for every command of the table.
    @Test func theManualHasAnEntryForEveryCommand() throws {
        let text = String(decoding: try FileIO.read(PackagePaths.path("docs/locationctl.1.md")), as: UTF8.self)
        let section = try #require(text.range(of: "## COMMANDS")).upperBound
        let end = try #require(text.range(of: "## EXIT STATUS")).lowerBound
        var entries: Set<String> = []
        for line in text[section..<end].split(separator: "\n") where line.hasPrefix("`") {
            for item in line.split(separator: "`").enumerated() where item.offset % 2 == 0 {
                if let word = item.element.split(separator: " ").first { entries.insert(String(word)) }
            }
        }
        for command in CtlCommands.all {
            #expect(entries.contains(command.name), "docs/locationctl.1.md has no entry for \(command.name)")
        }
    }
}
