import LocationProtocol

/// `locationctl watch`'s text: the state the daemon sends first under a header of
/// its own, then the changes under another, so no line of the opening state reads
/// as something that just happened.
///
/// ```
/// 12:00:02 the state as watch begins:
///   source fix
///   logger authorization while-using (once), full accuracy
/// events as they happen:
/// 12:00:04 logger location 52.3765432,4.8954321 ±4.8 m full (fix time 12:00:04)
/// ```
public struct WatchTranscript: Sendable {
    /// Whether the last event printed was part of the opening state.
    private var inSnapshot = false

    /// Nothing printed yet.
    public init() {}

    /// The lines (no newlines) for `event`, read at `receivedAt` (the system clock, UTC):
    /// its own line, after the header it opens, if any.
    public mutating func lines(for event: ControlEvent, receivedAt: Double) -> [String] {
        var lines: [String] = []
        if event.snapshot, !inSnapshot {
            lines.append(TextFormat.clock(event.time ?? receivedAt) + " the state as watch begins:")
        } else if !event.snapshot, inSnapshot {
            lines.append("events as they happen:")
        }
        inSnapshot = event.snapshot
        lines.append(EventRenderer.render(event, receivedAt: receivedAt))
        return lines
    }
}
