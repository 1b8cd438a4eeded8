#if canImport(Glibc)
import Glibc
#endif
import LocationTools
import Foundation
import Testing
import TestSupport

/// The shell completion for locationctl (completion/): it offers every
/// command locationctl has, the words each command takes, and the client
/// names the running daemon reports.
@Suite(.timeLimit(.minutes(10))) struct CompletionScriptTests {
    static let bashScript = PackagePaths.path("completion/locationctl.bash")
    static let zshScript = PackagePaths.path("completion/_locationctl")
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"

    /// The words of the bash script's `_locationctl_commands="…"` list.
    static func bashCommands() throws -> [String] {
        let text = String(decoding: try FileIO.read(bashScript), as: UTF8.self)
        guard let start = text.range(of: "_locationctl_commands=\"") else { return [] }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return [] }
        return rest[..<end].split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// The names of the zsh script's `'name:description'` command list.
    static func zshCommands() throws -> [String] {
        let text = String(decoding: try FileIO.read(zshScript), as: UTF8.self)
        guard let start = text.range(of: "commands=(\n"), let end = text[start.upperBound...].range(of: "\n    )") else {
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.first == "'", let colon = trimmed.firstIndex(of: ":") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<colon])
        }
    }

    /// The checked-in scripts are what the command table generates now: run
    /// `locationctl --generate-completion-script bash > completion/locationctl.bash`
    /// (and `zsh > completion/_locationctl`) after changing a command.
    @Test(arguments: CompletionScript.Shell.allCases)
    func theInstalledScriptsAreGeneratedFromTheCommandTable(shell: CompletionScript.Shell) throws {
        let path = shell == .bash ? Self.bashScript : Self.zshScript
        let text = String(decoding: try FileIO.read(path), as: UTF8.self)
        #expect(text == CompletionScript.script(for: shell), "\(path) is out of date: regenerate it")
    }

    @Test(.enabled(if: ExternalTool.isAvailable(when: access("/usr/bin/zsh", X_OK) == 0), "needs zsh (zsh)"))
    func bothScriptsParseInTheirShells() async throws {
        for (shell, path) in [("bash", Self.bashScript), ("zsh", Self.zshScript)] {
            let result = try await ChildProcess.run([shell, "-n", path], timeout: 30)
            #expect(result.status == 0, "\(shell) -n \(path): \(result.stderr)")
        }
    }

    @Test func bothScriptsOfferEveryCommandLocationctlHas() throws {
        let commands = Set(CtlUsage.commandNames + ["help"])
        #expect(Set(try Self.bashCommands()) == commands, "completion/locationctl.bash")
        #expect(Set(try Self.zshCommands()) == commands, "completion/_locationctl")
    }

    /// Completes `words` (the last one is being typed) in bash with
    /// bash-completion loaded; `program` stands in for locationctl.
    static func complete(_ words: [String], program: String) async throws -> [String] {
        let quoted = ([program] + words).map { "'" + $0 + "'" }.joined(separator: " ")
        let script = """
            source \(bashCompletion)
            source \(bashScript)
            COMP_WORDS=(\(quoted))
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _locationctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await ChildProcess.run(["bash", "--norc", "--noprofile", "-c", script], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        return result.output.split(separator: "\n").map(String.init).sorted()
    }

    @Test(.enabled(
        if: ExternalTool.isAvailable(when: access(bashCompletion, R_OK) == 0), "needs bash-completion (bash-completion)"))
    func bashCompletesCommandsTheirWordsAndTheDaemonsClients() async throws {
        let scratch = try ScratchDirectory("completion")
        // A stand-in for locationctl: the shape of `locationctl --json status`
        // (docs/protocol.md) when it is asked for that, nothing otherwise.
        let fake = scratch.file("locationctl")
        try FileIO.write(
            fake,
            Array("""
            #!/bin/sh
            [ "$*" = "--socket /tmp/x.sock --json status" ] || [ "$*" = "--json status" ] || exit 3
            echo '{"id":1,"ok":true,"status":{"clients":[{"client":"tracker","status":"never"},{"client":"logger"}],"prompts":[{"client":"logger"}]}}'
            """.utf8), mode: 0o755)
        let silent = scratch.file("silent")
        try FileIO.write(silent, Array("#!/bin/sh\nexit 3\n".utf8), mode: 0o755)

        #expect(try await Self.complete(["au"], program: fake) == ["authorize"])
        #expect(try await Self.complete(["authorize", ""], program: fake) == ["logger", "tracker"])
        #expect(try await Self.complete(["--socket", "/tmp/x.sock", "session", "t"], program: fake) == ["tracker"])
        #expect(try await Self.complete(["authorize", "logger", ""], program: fake)
            == ["always", "ask", "never", "while-using"])
        #expect(try await Self.complete(["answer", "logger", "allow"], program: fake)
            == ["allow", "allow-once", "allow-while-using"])
        #expect(try await Self.complete(["answer", "logger", "allow-once", "--a"], program: fake) == ["--approximate"])
        #expect(try await Self.complete(["reset", "l"], program: fake) == ["logger"])
        #expect(try await Self.complete(["services", ""], program: fake) == ["off", "on"])
        #expect(try await Self.complete(["export", "log.jsonl", "--format", ""], program: fake)
            == ["csv", "geojson", "gpx", "kml"])
        #expect(try await Self.complete(["help", "req"], program: fake) == ["request", "request-full-accuracy"])
        #expect(try await Self.complete(["plot", "a.jsonl", "-"], program: fake) == ["--gap", "--output", "--reference", "-o"])
        // An option's value is not counted as an argument.
        #expect(try await Self.complete(["locate", "--timeout", "5", "l"], program: fake) == ["logger"])
        #expect(try await Self.complete(["tail", "-n", "5", "--"], program: fake) == ["--follow", "--lines"])
        // No daemon: no client names, and no error.
        #expect(try await Self.complete(["authorize", ""], program: silent) == [])
    }
}
