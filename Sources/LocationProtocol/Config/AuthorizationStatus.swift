/// Core Location's `CLAuthorizationStatus`, with the words the CLI uses.
public enum AuthorizationStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `notDetermined`: never delivers; a request opens a prompt.
    case ask
    /// `restricted`: set only by administrator policy.
    case restricted
    /// `denied`.
    case never
    /// `authorizedAlways`.
    case always
    /// `authorizedWhenInUse`.
    case whileUsing = "while-using"

    /// The CLI word.
    public var description: String { rawValue }
}
