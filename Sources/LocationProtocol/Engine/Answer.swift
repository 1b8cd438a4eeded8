/// The user's answer to a prompt.
public enum Answer: String, Sendable, Hashable, CaseIterable {
    /// Allow Once: while-using + once.
    case allowOnce = "allow-once"
    /// Allow While Using App.
    case allowWhileUsing = "allow-while-using"
    /// Don't Allow.
    case deny
    /// Allow temporary full accuracy, or the location button.
    case allow
    /// Keep Only While Using.
    case keepWhileUsing = "keep-while-using"
    /// Change to Always Allow.
    case changeToAlways = "change-to-always"
}
