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
    let arguments: [String]

    init(command: String, arguments: [String]) {
        self.command = command
        self.arguments = arguments
    }

    func fail(_ message: String) -> Result<CtlInvocation.Action, UsageError> {
        .failure(CtlArguments.error(message, command: command))
    }

    /// Options each command takes, and whether they take a value.
    static let optionTable: [String: [(names: [String], takesValue: Bool)]] = [
        "locate": [(["--timeout"], true)],
        "report": [(["--since"], true)],
        "answer": [(["--approximate"], false)],
        "tail": [(["-n", "--lines"], true), (["-f", "--follow"], false)],
        "export": [(["--format"], true), (["-o", "--output"], true), (["--gap"], true), (["--line"], false)],
        "summary": [(["--gap"], true)],
        "plot": [(["-o", "--output"], true), (["--gap"], true)],
    ]

    mutating func parse() -> Result<CtlInvocation.Action, UsageError> {
        let table = Self.optionTable[command] ?? []
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
        return action()
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

    func action() -> Result<CtlInvocation.Action, UsageError> {
        func request(_ command: Command) -> Result<CtlInvocation.Action, UsageError> {
            .success(.request(.command(command)))
        }
        switch command {
        case "status":
            return expect(["CLIENT"], optional: 1).map { .request(.status(client: $0.first)) }
        case "watch":
            return expect(["CLIENT"], optional: 1).map { .request(.watch(client: $0.first)) }
        case "prompts":
            return expect([]).map { _ in .request(.prompts) }
        case "report":
            return expect(["CLIENT"], optional: 1).flatMap { args in
                var since: Double?
                if let text = option("--since") {
                    guard let seconds = Self.duration(text), seconds > 0, seconds <= 366 * 86_400 else {
                        return fail("--since must be a duration such as 90s, 15m, 2h or 7d (at most 366d), not \"\(text)\"")
                    }
                    since = seconds
                }
                return .success(.request(.report(client: args.first, since: since)))
            }
        case "services":
            return expect(["on|off"]).flatMap { args in
                word(args[0], "services", ["on", "off"]) { $0 == "on" ? true : $0 == "off" ? false : nil }
            }.map { .request(.command(.services(on: $0))) }
        case "authorize":
            return expect(["CLIENT", "STATUS"]).flatMap { args in
                if args[1] == "restricted" {
                    return .failure(
                        CtlArguments.error(
                            "restricted is set only by an administrator, with [policy] restricted in locationd.conf",
                            command: command))
                }
                let words = ["never", "ask", "while-using", "always"]
                return word(args[1], "status", words) { words.contains($0) ? AuthorizationStatus(rawValue: $0) : nil }
                    .flatMap { request(.authorize(client: args[0], status: $0)) }
            }
        case "accuracy":
            return expect(["CLIENT", "full|reduced"]).flatMap { args in
                word(args[1], "accuracy", ["full", "reduced"]) { $0 == "full" ? true : $0 == "reduced" ? false : nil }
                    .flatMap { request(.accuracy(client: args[0], full: $0)) }
            }
        case "request":
            return expect(["CLIENT", "while-using|always"]).flatMap { args in
                word(args[1], "request", RequestKind.allCases.map(\.rawValue)) { RequestKind(rawValue: $0) }
                    .flatMap { request(.request(client: args[0], kind: $0)) }
            }
        case "answer":
            return expect(["CLIENT", "ANSWER"]).flatMap { args in
                word(args[1], "answer", Answer.allCases.map(\.rawValue)) { Answer(rawValue: $0) }
                    .flatMap { request(.answer(client: args[0], answer: $0, precise: flag("--approximate") ? false : nil)) }
            }
        case "share":
            return expect(["CLIENT"]).flatMap { request(.share(client: $0[0])) }
        case "reset":
            return expect(["CLIENT"]).flatMap { request(.reset(client: $0[0])) }
        case "start":
            return expect(["CLIENT"]).flatMap { request(.start(client: $0[0])) }
        case "stop":
            return expect(["CLIENT"]).flatMap { request(.stop(client: $0[0])) }
        case "request-full-accuracy":
            return expect(["CLIENT", "KEY"]).flatMap { request(.requestFullAccuracy(client: $0[0], purpose: $0[1])) }
        case "session":
            return expect(["CLIENT", "begin|end"]).flatMap { args in
                word(args[1], "session", ["begin", "end"]) { $0 == "begin" ? true : $0 == "end" ? false : nil }
                    .flatMap { request(.session(client: args[0], inUse: $0)) }
            }
        case "locate":
            return expect(["CLIENT"]).flatMap { args in
                var timeout: Double?
                if let text = option("--timeout") {
                    guard let seconds = Double(text), seconds > 0, seconds <= ControlRequest.maximumLocateTimeout else {
                        return fail("--timeout must be a number of seconds above 0 and at most \(Int(ControlRequest.maximumLocateTimeout)), not \"\(text)\"")
                    }
                    timeout = seconds
                }
                return request(.locate(client: args[0], timeout: timeout))
            }
        case "tail":
            return expect(["CLIENT"], optional: 1).flatMap { args in
                var lines = 10
                if let text = option("--lines") {
                    guard let n = Int(text), n >= 0 else {
                        return fail("-n must be a whole number of records, 0 or more, not \"\(text)\"")
                    }
                    lines = n
                }
                let target: CtlInvocation.Tail.Target
                if let arg = args.first, arg.contains("/") || arg.hasSuffix(".jsonl") || arg == "-" {
                    target = .file(arg)
                } else {
                    target = .client(args.first)
                }
                return .success(.tail(CtlInvocation.Tail(target: target, lines: lines, follow: flag("--follow"))))
            }
        case "export":
            return expect(["LOG"]).flatMap { args in
                let output = option("--output")
                if let output, output.isEmpty { return fail("-o needs a file name") }
                let formats = ExportFormat.allCases.map(\.rawValue)
                let format: ExportFormat
                if let text = option("--format") {
                    switch word(text.lowercased(), "format", formats, { ExportFormat(rawValue: $0) }) {
                    case .success(let f): format = f
                    case .failure(let e): return .failure(e)
                    }
                } else if let output, let inferred = ExportFormat(fileName: output) {
                    format = inferred
                } else {
                    return fail("missing --format (gpx, geojson, kml or csv)")
                }
                var gap = TrackSegmenter.defaultGap
                if let text = option("--gap") {
                    guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                        return fail("--gap must be a number of seconds above 0, not \"\(text)\"")
                    }
                    gap = seconds
                }
                if flag("--line") && format != .geojson {
                    return fail("--line is for --format geojson (GPX and KML already write tracks)")
                }
                return .success(
                    .export(CtlInvocation.Export(log: args[0], format: format, output: output, gap: gap, line: flag("--line"))))
            }
        case "summary", "plot":
            return trackAction()
        default:
            // CtlArguments.parse only hands over words that have a help page; every page has a case here.
            preconditionFailure("locationctl command \"\(command)\" has a help page but no parser")
        }
    }
}
