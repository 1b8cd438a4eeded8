import LocationCore
import LocationValues

/// `locationd`'s command line as a pure function.
public enum DaemonArguments {
    /// Parses the arguments after the program name.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) -> Result<DaemonInvocation, UsageError> {
        let defaultConfig = environment[DaemonUsage.configEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? DaemonUsage.defaultConfigPath
        let names = DaemonUsage.pages.map(\.name)
        var help = false
        var version = false
        var words: [String] = []
        for argument in arguments {
            switch argument {
            case "-h", "--help": help = true
            case "--version": version = true
            default: words.append(argument)
            }
        }
        guard let command = words.first else {
            if help { return .success(.help(command: nil)) }
            if version { return .success(.version) }
            return .failure(error("missing command", command: nil))
        }
        if command == "help" {
            guard let topic = words.dropFirst().first else { return .success(.help(command: nil)) }
            guard names.contains(topic) else {
                return .failure(error("no help for \"\(topic)\"" + Suggestion.phrase(for: topic, among: names), command: nil))
            }
            return .success(.help(command: topic))
        }
        guard names.contains(command) else {
            let hint = Suggestion.phrase(for: command, among: names + ["help"])
            if command.hasPrefix("-") { return .failure(error("unknown option \(command)\(hint)", command: nil)) }
            return .failure(error("unknown command \"\(command)\"\(hint)", command: nil))
        }
        if help { return .success(.help(command: command)) }

        let accepted: [String] = command == "replay" ? ["--config", "--events", "--log-dir", "--state"] : ["--config"]
        var values: [String: String] = [:]
        var positionals: [String] = []
        var rest = words.dropFirst()[...]
        while let argument = rest.popFirst() {
            if argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                value = String(argument[argument.index(after: eq)...])
            }
            guard accepted.contains(name) else {
                return .failure(
                    error(
                        "unknown option \(name) for \(command)" + Suggestion.phrase(for: name, among: accepted),
                        command: command))
            }
            if value == nil { value = rest.popFirst() }
            guard let value, !value.isEmpty else { return .failure(error("\(name) needs a value", command: command)) }
            values[name] = value
        }
        let config = values["--config"] ?? defaultConfig
        switch command {
        case "replay":
            guard !positionals.isEmpty else { return .failure(error("missing FILE", command: command)) }
            // Each file is its own receiver, named by its path: the same path twice would be one receiver read twice.
            if let twice = positionals.indices.first(where: { positionals[..<$0].contains(positionals[$0]) }) {
                return .failure(error("\"\(positionals[twice])\" given twice", command: command))
            }
            return .success(
                .replay(
                    DaemonInvocation.Replay(
                        inputs: positionals, config: config, events: values["--events"], logDirectory: values["--log-dir"],
                        state: values["--state"])))
        default:
            if let extra = positionals.first {
                return .failure(error("unexpected argument \"\(extra)\"", command: command))
            }
            return .success(command == "run" ? .run(config: config) : .checkConfig(config: config))
        }
    }

    static func error(_ message: String, command: String?) -> UsageError {
        if let command, let page = DaemonUsage.pages.first(where: { $0.name == command }) {
            return UsageError(program: "locationd", message: message, command: command, synopsis: ["locationd " + page.synopsis])
        }
        return UsageError(
            program: "locationd", message: message, command: nil, synopsis: DaemonUsage.pages.map { "locationd " + $0.synopsis })
    }
}
