/// What the source says about its link and the receiver.
public enum SourceState: String, Sendable, Hashable, CaseIterable {
    /// Not connected (yet, or again): gpsd down, device unplugged.
    case connecting
    /// Connected, nothing reported yet.
    case connected
    /// Connected; the receiver reports no fix.
    case noFix = "no-fix"
    /// Connected; the receiver reports fixes.
    case fix
    /// A plain file read to its end and followed for more (a recording): no outage, nothing
    /// is wrong with a receiver — the fixes simply have not been written yet.
    case endOfFile = "end-of-file"
}
