import LocationProtocol

/// `locationctl`'s help texts: the overview and one page per command.
public enum CtlUsage {
    /// The global options, as the overview and every page list them.
    public static let globalOptions = """
        Options:
          --socket PATH   control socket (default $LOCATIOND_SOCKET, else \(ControlProtocol.defaultSocketPath))
          --json          print replies and events as JSON, one object per line
          -h, --help      show help (also: locationctl help COMMAND, locationctl COMMAND --help)
          --version       print the version
        """

    /// Exit statuses, as every page lists them.
    public static let exitStatus = """
        Exit status: 0 done; 1 the daemon refused (the message says why and what to do);
        2 usage error; 3 cannot reach the daemon.
        """

    /// A command's help page: the command's entry in `CtlCommands.all`.
    public typealias Page = CtlCommand

    /// Every command's page, in the overview's order.
    public static var pages: [Page] { CtlCommands.all }

    /// The page for a command word.
    public static func page(_ name: String) -> Page? { CtlCommands.command(name) }

    /// Every command word.
    public static var commandNames: [String] { pages.map(\.name) }

    /// The overview: `locationctl --help`.
    public static var overview: String {
        let width = (pages.map(\.name.count).max() ?? 0) + 2
        var lines = [
            "usage: locationctl [--socket PATH] [--json] COMMAND [ARGS]",
            "",
            "Talks to a running locationd: shows and changes location permissions, watches events,",
            "reads and converts coordinate logs.",
            "",
            "Commands:",
        ]
        for page in pages {
            lines.append("  " + page.name + String(repeating: " ", count: width - page.name.count) + page.summary)
        }
        lines.append("")
        lines.append(globalOptions)
        lines.append("")
        lines.append(exitStatus)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help for `command`, or the overview for `nil` (or an unknown word).
    public static func help(for command: String?) -> String {
        guard let command, let page = page(command) else { return overview }
        return """
            usage: locationctl [--socket PATH] [--json] \(page.synopsis)

            \(page.summary.prefix(1).uppercased() + page.summary.dropFirst()).

            \(page.details)

            \(globalOptions)

            \(exitStatus)

            """
    }
}
