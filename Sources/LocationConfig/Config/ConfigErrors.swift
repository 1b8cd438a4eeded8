/// Every problem found in one configuration file, in line order: the parser
/// collects them all so a person fixes the file in one go.
public struct ConfigErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, at least one.
    public var errors: [ConfigError]

    /// A collection of problems.
    public init(_ errors: [ConfigError]) {
        self.errors = errors
    }

    /// One problem per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
