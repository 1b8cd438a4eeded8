/// Why gpsfake (or a stand-in for gpsd) could not be run.
public struct GPSFakeError: Error, CustomStringConvertible, Sendable {
    /// What failed, with gpsfake's own output when there was some.
    public var description: String

    /// An error with its own sentence.
    public init(description: String) {
        self.description = description
    }
}
