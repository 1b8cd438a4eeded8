import LocationValues

/// How a client's MQTT publishing stands (`status` replies' `brokers`, and
/// the `broker` event of `watch` when `state` changes). It never holds a
/// position: only the broker, counts and times.
///
/// ```
/// {"client":"fleet","broker":"mqtt://127.0.0.1:1883","topic":"owntracks/board/one","state":"connected",
///  "detail":"connected","backlog":0,"published":412,"lastPublish":"2026-03-14T09:30:01.000Z"}
/// ```
public struct BrokerStatus: Sendable, Hashable {
    /// Where the connection is.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Connecting, or waiting to try again after nothing had failed yet.
        case connecting
        /// Connected: the broker accepted us; records are being published.
        case connected
        /// The broker answered and refused (bad user name or password, not authorised, …).
        case refused
        /// TLS failed: the CA, the certificate, the key, or the handshake.
        case tls
        /// The broker could not be reached or the connection was lost (retrying with backoff).
        case unreachable
        /// The settings cannot work until they are changed (password file unreadable …).
        case misconfigured
    }

    /// The client whose log is published.
    public var client: String
    /// `mqtt://host:port` or `mqtts://host:port`.
    public var broker: String
    /// The topic.
    public var topic: String
    /// Where the connection is.
    public var state: State
    /// Why, in words (`bad user name or password`, `Connection refused`, `connected`).
    public var detail: String
    /// Records in the log not yet acknowledged by the broker (QoS 0: not yet sent).
    public var backlog: Int
    /// Records acknowledged since the daemon started.
    public var published: Int
    /// When the broker last acknowledged a record (UTC seconds), since the daemon started.
    public var lastPublish: Double?
    /// Log lines that are no records and were skipped (not published).
    public var skipped: Int
    /// Rotated log files that were gone before all their records were published.
    public var lostFiles: Int

    /// A status from its parts.
    public init(
        client: String, broker: String, topic: String, state: State, detail: String, backlog: Int = 0,
        published: Int = 0, lastPublish: Double? = nil, skipped: Int = 0, lostFiles: Int = 0
    ) {
        self.client = client
        self.broker = broker
        self.topic = topic
        self.state = state
        self.detail = detail
        self.backlog = backlog
        self.published = published
        self.lastPublish = lastPublish
        self.skipped = skipped
        self.lostFiles = lostFiles
    }

    /// The members, in the order above; `lastPublish` only once there was one,
    /// `skipped` and `lostFiles` only when not 0.
    public var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("client", .string(client)), ("broker", .string(broker)), ("topic", .string(topic)),
            ("state", .string(state.rawValue)), ("detail", .string(detail)), ("backlog", .number(Double(backlog))),
            ("published", .number(Double(published))),
        ]
        if let lastPublish, UTCTime.isWritable(lastPublish) {
            members.append(("lastPublish", .string(UTCTime.format(lastPublish))))
        }
        if skipped > 0 { members.append(("skipped", .number(Double(skipped)))) }
        if lostFiles > 0 { members.append(("lostFiles", .number(Double(lostFiles)))) }
        return members
    }

    /// The status as a JSON object.
    public var json: JSONValue { .object(jsonMembers) }

    /// Reads what `json` writes (extra members, such as an event's, are ignored).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "broker")
        do throws(FieldReader.FieldError) {
            self.init(
                client: try f.string("client"), broker: try f.string("broker"), topic: try f.text("topic"),
                state: try f.word("state", State.allCases.map(\.rawValue)) { State(rawValue: $0) },
                detail: try f.text("detail"), backlog: try f.optionalInt("backlog") ?? 0,
                published: try f.optionalInt("published") ?? 0, lastPublish: try f.optionalTime("lastPublish"),
                skipped: try f.optionalInt("skipped") ?? 0, lostFiles: try f.optionalInt("lostFiles") ?? 0)
        } catch {
            throw error.decodeError
        }
    }
}
