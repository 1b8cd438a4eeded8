import LocationProtocol
import LocationValues

/// `locationctl watch` and `tail`: one readable line per event or record.
///
/// `12:00:03 logger authorization → while-using (once), full accuracy`
/// `12:00:04 logger location 52.3765432,4.8954321 ±4.8 m full`
public enum EventRenderer {
    /// One line (no newline) for an event; times are UTC. With `receivedAt`
    /// (the system clock when `watch` read the event) every line starts with
    /// the system clock's time — the daemon's for engine events, `receivedAt`
    /// for locations — and a location line ends with its fix's own time,
    /// labelled: `12:00:05 logger location … full (fix time 12:00:04)`. An event of
    /// the opening state (`snapshot`) is no change: it is indented, without a time or
    /// an arrow (`  logger authorization while-using, full accuracy`), under `WatchTranscript`'s header.
    public static func render(_ event: ControlEvent, receivedAt: Double? = nil) -> String {
        let time = event.snapshot ? "  " : event.time.map { TextFormat.clock($0) + " " } ?? ""
        let arrow = event.snapshot ? "" : "→ "
        switch event.kind {
        case .location(let record):
            guard let receivedAt else { return time + locationText(record) }
            let sameDay = UTCTime.isWritable(receivedAt) && UTCTime.format(receivedAt).prefix(10) == UTCTime.format(record.time).prefix(10)
            let fixTime = sameDay ? TextFormat.clock(record.time) : TextFormat.dateTime(record.time)
            return TextFormat.clock(receivedAt) + " " + locationText(record) + " (fix time \(fixTime))"
        case .engine(.authorization(let a)):
            return time + "\(a.client) authorization \(arrow)\(TextFormat.authorization(a))"
        case .engine(.prompt(let prompt, let open)):
            let client = PeerText.escaped(prompt.client)
            guard open else { return time + "\(client) prompt \(prompt.kind.rawValue) closed" }
            var text = time + "\(client) prompt \(prompt.kind.rawValue)"
            if !prompt.text.isEmpty { text += " \"\(PeerText.escaped(prompt.text))\"" }
            return text + " — answer: \(TextFormat.answers(prompt))"
        case .engine(.promptWithdrawn(let prompt, let reason)):
            return time + "\(PeerText.escaped(prompt.client)) prompt \(prompt.kind.rawValue) withdrawn: \(PeerText.escaped(reason))"
        case .engine(.error(let client, let code, let message)):
            return time + "\(client) error \(code.rawValue)" + (message.isEmpty ? "" : ": \(PeerText.escaped(message))")
        case .engine(.use(let change)):
            return time + "\(change.client) \(change.kind.rawValue): \(PeerText.escaped(change.message))"
        case .engine(.source(let state)):
            return time + "source \(arrow)\(state.rawValue)"
        case .engine(.timeJump(let jump)):
            return time + "source: " + jump.sentence
        case .engine(.receiver(let change)):
            return time + "receiver: " + change.sentence
        case .log(let change):
            return time + "\(change.client) log \(change.status.failing ? "failing" : "works again"): \(change.message)"
        case .state(let state):
            return time + (state.failureLine.map { "state not saved: " + $0 } ?? "state saved to \(state.path) again")
        case .broker(let broker):
            return time + "\(broker.client) broker \(broker.broker) \(arrow)\(broker.state.rawValue)"
                + (broker.detail.isEmpty || broker.detail == broker.state.rawValue ? "" : ": \(broker.detail)")
        }
    }

    /// One line for a log record: `12:00:04 logger location …`, with the date
    /// when `withDate` (tail shows records from other days).
    public static func render(_ record: LogRecord, withDate: Bool = false) -> String {
        let time = withDate ? TextFormat.dateTime(record.time) : TextFormat.clock(record.time)
        return time + " " + locationText(record)
    }

    private static func locationText(_ record: LogRecord) -> String {
        var text = "\(record.client) location " + TextFormat.position(latitude: record.latitude, longitude: record.longitude)
        if let error = record.horizontalError, error.isFinite { text += " " + TextFormat.error(error) }
        if let alt = record.altitude, alt.isFinite { text += " alt " + (FixedDecimal.format(alt, decimals: 1) ?? "?") + " m" }
        if let speed = record.speed, speed.isFinite { text += " " + (FixedDecimal.format(speed, decimals: 1) ?? "?") + " m/s" }
        return text + " " + record.accuracy.rawValue
    }
}
