
/// The bash and zsh completion scripts for `locationctl`, generated from the
/// command table (`CtlCommands.all`), so a command, argument or option added
/// there is completed without a hand-kept list. `locationctl
/// --generate-completion-script bash|zsh` prints one; `completion/` holds the
/// generated files the package installs, and a test keeps them current.
public enum CompletionScript {
    /// The shells a script can be generated for.
    public enum Shell: String, Sendable, Hashable, CaseIterable {
        case bash
        case zsh
    }

    /// The script for `shell`.
    public static func script(for shell: Shell, commands: [CtlCommand] = CtlCommands.all) -> String {
        switch shell {
        case .bash: bash(commands)
        case .zsh: zsh(commands)
        }
    }

    /// The lines every script starts with, after its own first lines.
    static func header(_ comment: String) -> String {
        """
        \(comment) Generated from locationctl's command table by
        \(comment) `locationctl --generate-completion-script`: do not edit by hand
        \(comment) (Tests/LocationToolsTests/CLI/CompletionScriptTests.swift checks it is current).
        \(comment)
        \(comment) Client names come from the running daemon (`locationctl --json status`,
        \(comment) at most 2 s) and are left out when it does not answer.
        """
    }

    /// Every command word the scripts offer: the table's and `help`.
    static func words(_ commands: [CtlCommand]) -> [String] { commands.map(\.name) + ["help"] }

    /// The global options, as both scripts offer them.
    static let globalOptions: [CtlCommand.Option] = [
        .init(["--socket"], value: .file, help: "control socket"),
        .init(["--json"], help: "print replies and events as JSON"),
        .init(["-h", "--help"], help: "show help"),
        .init(["--version"], help: "print the version"),
    ]

    /// `text` inside single quotes for either shell.
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
