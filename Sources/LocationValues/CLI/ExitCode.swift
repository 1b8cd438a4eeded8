/// Exit statuses of `locationd` and `locationctl` (docs/design.md §4).
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
    /// Done.
    case ok = 0
    /// The daemon or the input refused it; the message says why and what to do.
    case refused = 1
    /// A usage error: unknown command or option, missing or bad argument.
    case usage = 2
    /// The daemon cannot be reached; the message names the socket and the likely cause.
    case unreachable = 3
    /// `locationd`: the configuration has errors (or cannot be read); every one
    /// was printed. sysexits.h's EX_CONFIG, so that the packaged unit's
    /// `RestartPreventExitStatus=78` does not restart a daemon that cannot start.
    case configuration = 78
}
