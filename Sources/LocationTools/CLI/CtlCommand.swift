import LocationValues

/// One `locationctl` command, declared once: its help page, the arguments and
/// options it takes (with what completes them), and how its action is built.
/// The parser (`CtlArguments`), `help` (`CtlUsage`) and both completion
/// scripts (`CompletionScript`) all read `CtlCommands.all`.
public struct CtlCommand: Sendable {
    /// The command word.
    public var name: String
    /// The synopsis after `locationctl`, e.g. `authorize CLIENT never|ask|while-using|always`.
    public var synopsis: String
    /// One line for the overview and the completion menus.
    public var summary: String
    /// The rest of the help page: what it does, arguments, examples.
    public var details: String
    /// The positional arguments, in order (for completion; the builder checks them).
    public var arguments: [Argument]
    /// The options the command takes after its word.
    public var options: [Option]
    /// Builds the action from the parsed arguments.
    let build: @Sendable (CommandParser) -> Result<CtlInvocation.Action, UsageError>

    /// A positional argument.
    public struct Argument: Sendable, Hashable {
        /// Its name in the synopsis (`CLIENT`, `LOG`).
        public var name: String
        /// What completes it.
        public var completion: Completion
        /// Whether it may be given any number of times (`LOG...`).
        public var repeats: Bool

        /// An argument from its parts.
        public init(_ name: String, _ completion: Completion, repeats: Bool = false) {
            self.name = name
            self.completion = completion
            self.repeats = repeats
        }
    }

    /// An option: its names (the last is the canonical one), its value, its help.
    public struct Option: Sendable, Hashable {
        /// Every spelling, e.g. `["-n", "--lines"]`; the parser reports the last.
        public var names: [String]
        /// What completes its value; `nil` for a flag that takes none.
        public var value: Completion?
        /// A few words for the completion menus.
        public var help: String

        /// An option from its parts.
        public init(_ names: [String], value: Completion? = nil, help: String) {
            self.names = names
            self.value = value
            self.help = help
        }

        /// Whether it takes a value.
        public var takesValue: Bool { value != nil }
    }

    /// What a shell offers for an argument or an option's value.
    public enum Completion: Sendable, Hashable {
        /// A client name, asked of the running daemon.
        case client
        /// One of these words.
        case words([String])
        /// A file name.
        case file
        /// A client name or a file name.
        case clientOrFile
        /// A command word (`help`'s argument).
        case command
        /// Nothing to offer (a number, free text).
        case none
    }
}

/// Every command, in the order of the overview.
public enum CtlCommands {
    /// The table the parser, help and completion read.
    public static let all: [CtlCommand] = permissions + logs

    /// The command named `name`.
    public static func command(_ name: String) -> CtlCommand? { all.first { $0.name == name } }
}
