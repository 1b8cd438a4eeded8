import LocationCore
import LocationProtocol
import LocationTools
import Testing
import TestSupport

/// docs/protocol.md, "Next steps": every `locationctl …` line a message suggests — the engine's
/// outcomes and errors, the daemon's journal, a face's refusals, `locationctl`'s own hints — is
/// rendered from the command it names (`Command.commandLine`, `CommandWord.commandLine`), so a
/// renamed command renames every suggestion, and every one is a line `locationctl` parses.
@Suite(.timeLimit(.minutes(10))) struct CommandLineRuleTests {
    /// One command of every kind, with each field's values locationctl sends: not `restricted`
    /// (the configuration's alone), nor the Precise switch turned on by hand (it is on unless
    /// `--approximate` turns it off).
    static let commands: [Command] =
        [.services(on: true), .services(on: false)]
        + AuthorizationStatus.allCases.filter { $0 != .restricted }.map { .authorize(client: "logger", status: $0) }
        + [.accuracy(client: "logger", full: true), .accuracy(client: "logger", full: false)]
        + RequestKind.allCases.map { .request(client: "logger", kind: $0) }
        + Answer.allCases.flatMap { answer in [nil, false].map { Command.answer(client: "logger", answer: answer, precise: $0) } }
        + [
            .share(client: "logger"), .reset(client: "logger"), .requestFullAccuracy(client: "logger", purpose: "survey"),
            .session(client: "logger", inUse: true), .session(client: "logger", inUse: false), .start(client: "logger"),
            .stop(client: "logger"), .locate(client: "logger", timeout: nil), .locate(client: "logger", timeout: 30),
        ]

    @Test(arguments: commands)
    func everyCommandsLineIsOneLocationctlParsesBackToIt(command: Command) throws {
        #expect(command.commandLine.hasPrefix("locationctl \(command.name) "), "\(command.commandLine)")
        let invocation = try CtlArguments.parse(command.commandLineArguments).get()
        #expect(invocation.action == .request(.command(command)), "\(command.commandLine)")
        #expect(NextStepText.commandLine(command) == command.commandLine)
    }

    @Test func everyWordOfTheProtocolIsACommandOfLocationctlsTable() {
        for word in CommandWord.allCases where word != .hello {
            #expect(CtlCommands.command(word.rawValue) != nil, "locationctl has no \(word.rawValue)")
        }
    }

    /// A prompt's answers as one `answer` line whose every alternative parses as that answer.
    @Test func aPromptsAnswerLineOffersEveryAnswerItTakes() throws {
        let prompt = Prompt(client: "logger", kind: .whileUsing, text: "Logs the walk")
        let line = Command.answerLine(prompt)
        #expect(line == "locationctl answer logger " + prompt.answers.map(\.rawValue).joined(separator: "|"))
        #expect(prompt.answers.count >= 2)
        for answer in prompt.answers {
            let invocation = try CtlArguments.parse(["answer", "logger", answer.rawValue]).get()
            #expect(invocation.action == .request(.command(.answer(client: "logger", answer: answer))))
        }
    }

    /// The files that declare `locationctl`'s commands and their help, where the words are the table.
    static let tableFiles = ["LocationTools/CLI/Ctl", "LocationTools/CLI/CompletionScript"]

    /// No source file writes `locationctl WORD` by hand in code: a suggestion is rendered.
    @Test func noSourceSpellsACommandLineByHand() throws {
        let sources = PackagePaths.path("Sources")
        let files = TimeLimitRuleTests.swiftFiles(under: sources).filter { file in !Self.tableFiles.contains { file.hasPrefix($0) } }
        try #require(files.count > 100, "found \(files.count) source files under \(sources)")
        let words = CommandWord.allCases.map(\.rawValue)
        var found: [String] = []
        for file in files {
            let lines = (FileIO.text(sources + "/" + file) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.drop { $0 == " " }
                if code.hasPrefix("//") { continue }
                for word in words where Self.spells(String(code), word) { found.append("\(file):\(number + 1): \(code)") }
            }
        }
        #expect(found.isEmpty, "render these from the command: \(found.joined(separator: "\n"))")
    }

    /// Whether `line` holds `locationctl WORD` followed by no more of a word.
    static func spells(_ line: String, _ word: String) -> Bool {
        var rest = Substring(line)
        while let range = rest.range(of: "locationctl " + word) {
            let after = rest[range.upperBound...].first
            if after.map({ !($0.isLetter || $0 == "-") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    @Test func theRuleFindsALineWrittenByHand() {
        #expect(Self.spells(#"return "run: locationctl authorize \(name) while-using""#, "authorize"))
        #expect(Self.spells("see locationctl status", "status"))
        #expect(!Self.spells("see locationctl statuses", "status"))
        #expect(!Self.spells(#"locationctl request-full-accuracy"#, "request"))
    }
}
