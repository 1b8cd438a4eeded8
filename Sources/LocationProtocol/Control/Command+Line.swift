/// How a command a message suggests is written for a person: the one rendering of every
/// `locationctl …` line the engine, the daemon's journal, its faces and `locationctl` itself
/// print (docs/protocol.md, "Next steps"). The word is the protocol's (`CommandWord`), which is
/// also `locationctl`'s command word for it (`CtlCommands`, checked by a test); the fields follow
/// as that command's arguments and options. Renaming a command renames every suggestion.
extension Command {
    /// The program a suggestion names.
    public static let program = "locationctl"

    /// The arguments after `locationctl`: the word, then the fields in `CommandWord.fields` order
    /// (`precise = false` as `--approximate`, a locate timeout as `--timeout N`).
    public var commandLineArguments: [String] {
        var arguments = [name]
        for (field, value) in zip(word.fields, words.dropFirst()) {
            switch field {
            case "precise": if value == "false" { arguments.append("--approximate") }
            case "timeout": arguments += ["--timeout", value]
            default: arguments.append(value)
            }
        }
        return arguments
    }

    /// `locationctl authorize logger while-using`.
    public var commandLine: String {
        Self.program + " " + commandLineArguments.joined(separator: " ")
    }

    /// `locationctl answer logger allow-once|deny`: the prompt's answers as the alternatives of one
    /// `answer` line (`separator` between them).
    public static func answerLine(_ prompt: Prompt, separator: String = "|") -> String {
        program + " " + CommandWord.answer.rawValue + " " + prompt.client + " "
            + prompt.answers.map(\.rawValue).joined(separator: separator)
    }
}

extension CommandWord {
    /// `locationctl status logger`: a command line with this word and `arguments`, for what is no
    /// `Command` (a read such as `status` or `prompts`, or a form of `locationctl`'s own such as
    /// `session CLIENT -- COMMAND...`).
    public func commandLine(_ arguments: String...) -> String {
        ([Command.program, rawValue] + arguments).joined(separator: " ")
    }
}
