import LocationProtocol
import LocationValues

/// `locationctl`'s command line as a pure function (no IO, no environment
/// reads): the executable passes `CommandLine.arguments.dropFirst()` and its
/// environment, and prints the usage error or runs the invocation.
public enum CtlArguments {
    /// Parses the arguments after the program name. Global options
    /// (`--socket PATH`, `--json`, `-h`/`--help`, `--version`) may come before
    /// or after the command; `--` ends option parsing.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) -> Result<CtlInvocation, UsageError> {
        var socket: String?
        var json = false
        var help = false
        var version = false
        var completion: String?
        var words: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded {
                words.append(argument)
                continue
            }
            switch argument {
            case "--":
                optionsEnded = true
                words.append(argument)
            case "--json": json = true
            case "-h", "--help": help = true
            case "--version": version = true
            case "--generate-completion-script":
                guard index < arguments.count else {
                    return .failure(error("--generate-completion-script needs a shell: bash or zsh", command: nil))
                }
                completion = arguments[index]
                index += 1
            case "--socket":
                guard index < arguments.count else {
                    return .failure(error("--socket needs a path", command: nil))
                }
                socket = arguments[index]
                index += 1
            default:
                if argument.hasPrefix("--socket=") {
                    socket = String(argument.dropFirst("--socket=".count))
                } else {
                    words.append(argument)
                }
            }
        }
        if let socket, socket.isEmpty { return .failure(error("--socket needs a non-empty path", command: nil)) }
        let socketPath = socket ?? environment[ControlProtocol.socketEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? ControlProtocol.defaultSocketPath
        func invocation(_ action: CtlInvocation.Action) -> Result<CtlInvocation, UsageError> {
            .success(CtlInvocation(socketPath: socketPath, json: json, action: action))
        }

        if let completion {
            guard let shell = CompletionScript.Shell(rawValue: completion) else {
                return .failure(
                    error(
                        "no completion script for \"\(completion)\"; use bash or zsh"
                            + Suggestion.phrase(for: completion, among: ["bash", "zsh"]), command: nil))
            }
            return invocation(.completionScript(shell))
        }
        guard let command = words.first, command != "--" || words.count > 1 else {
            if help { return invocation(.help(command: nil)) }
            if version { return invocation(.version) }
            return .failure(error("missing command", command: nil))
        }
        var rest = Array(words.dropFirst())
        var name = command
        if command == "--" {
            // Everything after a leading `--` is a word: keep the marker for the command's own arguments.
            name = rest.removeFirst()
            rest.insert("--", at: 0)
        }
        if name == "help" {
            let topics = rest.filter { $0 != "--" }
            guard let topic = topics.first else { return invocation(.help(command: nil)) }
            guard CtlUsage.page(topic) != nil else {
                return .failure(
                    error(
                        "no help for \"\(topic)\"" + Suggestion.phrase(for: topic, among: CtlUsage.commandNames),
                        command: nil))
            }
            return invocation(.help(command: topic))
        }
        guard CtlUsage.page(name) != nil else {
            let hint = Suggestion.phrase(for: name, among: CtlUsage.commandNames + ["help"])
            if name.hasPrefix("-") { return .failure(error("unknown option \(name)\(hint)", command: nil)) }
            return .failure(error("unknown command \"\(name)\"\(hint)", command: nil))
        }
        if help { return invocation(.help(command: name)) }
        var parser = CommandParser(command: name, arguments: rest)
        switch parser.parse() {
        case .success(let action): return invocation(action)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// A usage error for `command` (or the whole program), with the right synopsis.
    static func error(_ message: String, command: String?) -> UsageError {
        if let command, let page = CtlUsage.page(command) {
            return UsageError(
                program: "locationctl", message: message, command: command,
                synopsis: ["locationctl [--socket PATH] [--json] " + page.synopsis])
        }
        return UsageError(
            program: "locationctl", message: message, command: nil,
            synopsis: ["locationctl [--socket PATH] [--json] COMMAND [ARGS]"])
    }
}

/// The arguments after one command word.
struct CommandParser {
    let command: String
    var positionals: [String] = []
    var options: [(name: String, value: String?)] = []
    /// How many positionals came before a `--` (`session CLIENT -- COMMAND…`); `nil` without one.
    var dashDashAt: Int?
    let arguments: [String]

    init(command: String, arguments: [String]) {
        self.command = command
        self.arguments = arguments
    }

    func fail(_ message: String) -> Result<CtlInvocation.Action, UsageError> {
        .failure(CtlArguments.error(message, command: command))
    }

    mutating func parse() -> Result<CtlInvocation.Action, UsageError> {
        guard let declared = CtlCommands.command(command) else {
            // CtlArguments.parse only hands over words the table has.
            preconditionFailure("locationctl command \"\(command)\" is not in CtlCommands.all")
        }
        let table = declared.options
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || Self.isNumber(argument) {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                dashDashAt = positionals.count
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            } else if !argument.hasPrefix("--"), argument.count > 2 {
                // -n20 or -fn 20 style clusters of short options.
                let letters = Array(argument.dropFirst())
                if let spec = table.first(where: { $0.names.contains("-\(letters[0])") }), spec.takesValue {
                    name = "-\(letters[0])"
                    inline = String(letters.dropFirst())
                } else if letters.allSatisfy({ letter in table.contains { $0.names.contains("-\(letter)") } }) {
                    var expanded = letters.map { "-\($0)" }
                    let last = expanded.removeLast()
                    for flag in expanded {
                        options.append((table.first { $0.names.contains(flag) }?.names.last ?? flag, nil))
                    }
                    name = last
                }
            }
            guard let spec = table.first(where: { $0.names.contains(name) }) else {
                let known = table.flatMap(\.names)
                let hint = Suggestion.phrase(for: name, among: known)
                if known.isEmpty { return fail("\(command) takes no option \(name)") }
                return fail("unknown option \(name) for \(command)\(hint)")
            }
            let canonical = spec.names.last ?? name
            if spec.takesValue {
                if let inline {
                    options.append((canonical, inline))
                } else {
                    guard index < arguments.count else { return fail("\(name) needs a value") }
                    options.append((canonical, arguments[index]))
                    index += 1
                }
            } else {
                if inline != nil { return fail("\(name) takes no value") }
                options.append((canonical, nil))
            }
        }
        return declared.build(self)
    }

    static func isNumber(_ text: String) -> Bool { Double(text) != nil }

    func option(_ name: String) -> String? { options.last { $0.name == name }?.value }
    func flag(_ name: String) -> Bool { options.contains { $0.name == name } }

    /// Exactly `count` positionals, named as the synopsis names them.
    func expect(_ names: [String], optional: Int = 0) -> Result<[String], UsageError> {
        let required = names.count - optional
        if positionals.count < required {
            return .failure(CtlArguments.error("missing \(names[positionals.count])", command: command))
        }
        if positionals.count > names.count {
            return .failure(
                CtlArguments.error("unexpected argument \"\(positionals[names.count])\"", command: command))
        }
        for (i, value) in positionals.enumerated() where value.isEmpty {
            return .failure(CtlArguments.error("\(names[i]) must not be empty", command: command))
        }
        return .success(positionals)
    }

    /// `90`, `90s`, `15m`, `2h`, `7d` in seconds.
    static func duration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last] { return Double(text.dropLast()).map { $0 * unit } }
        return Double(text)
    }

    func word<T>(_ value: String, _ what: String, _ words: [String], _ make: (String) -> T?) -> Result<T, UsageError> {
        if let result = make(value) { return .success(result) }
        return .failure(
            CtlArguments.error(
                "\(what) cannot be \"\(value)\"; use \(words.joined(separator: ", "))"
                    + Suggestion.phrase(for: value, among: words),
                command: command))
    }

    /// The action that sends `command` to the daemon.
    func request(_ command: Command) -> Result<CtlInvocation.Action, UsageError> {
        .success(.request(.command(command)))
    }
}
