/// When coordinate logs are forced to stable storage (`[daemon] fsync`).
public enum FsyncPolicy: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// After every line: a power cut loses nothing that was written.
    case always
    /// At most once a second: a power cut may lose the last second of lines.
    case interval

    /// The config word.
    public var description: String { rawValue }
}
