import LocationValues

/// One line of a `watch` stream: an engine event or a delivered location,
/// with the UTC time it happened.
///
/// ```
/// {"event":"authorization","time":"…","client":"logger","status":"while-using","stored":"ask","once":true,…}
/// {"event":"prompt","time":"…","client":"logger","kind":"while-using","open":true,"text":"…","answers":[…]}
/// {"event":"location","time":"…","lat":52.3765432,"lon":4.8954321,…,"accuracy":"full","client":"logger"}
/// {"event":"error","time":"…","client":"logger","code":"location-unknown","message":"…"}
/// {"event":"source","time":"…","state":"no-fix"}
/// {"event":"use","time":"…","client":"logger","change":"stop","inUse":true,"updating":false,"locatePending":false,"message":"…"}
/// {"event":"source","time":"…","state":"fix","timeJump":3153.6,"from":"…","to":"…","message":"receiver time went back …"}
/// {"event":"receiver","time":"…","from":"/dev/ttyUSB0","to":"/dev/ttyACM0","reason":"silent","seconds":3.0,"message":"…"}
/// {"event":"broker","time":"…","client":"fleet","broker":"mqtt://…","state":"connected",…}
/// {"event":"log","time":"…","client":"logger","path":"…","written":120,"held":1,"lost":0,"failing":true,"error":"…",…}
/// {"event":"state","time":"…","ok":false,"path":"…/state.json","since":"…","error":"…","unsaved":["logger: never (…)"]}
/// ```
public struct ControlEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// An engine event (authorization, prompt, error, source).
        case engine(Event)
        /// A fix delivered to a client, as its log line records it.
        case location(LogRecord)
        /// A client's MQTT connection changed state (connected, refused, lost …).
        case broker(BrokerStatus)
        /// A client's log began to fail, or works again.
        case log(LogWriteChange)
        /// Saving the state began to fail, or works again.
        case state(StateSaveStatus)
    }

    /// What happened.
    public var kind: Kind
    /// When (UTC seconds): the daemon's clock for engine events (the fix time
    /// in a replay), the fix's own time for a location; `nil` if not known.
    public var time: Double?
    /// Part of the state a new watcher is sent first (`snapshot`), not a change: `"snapshot":true`.
    public var snapshot = false

    /// An engine event that happened at `time`.
    public init(_ event: Event, time: Double?) {
        kind = .engine(event)
        self.time = time
    }

    /// A delivered location; its time is the fix's.
    public init(location: LogRecord) {
        kind = .location(location)
        time = location.time
    }

    /// A broker event at `time` (the daemon's clock).
    public init(broker: BrokerStatus, time: Double?) {
        kind = .broker(broker)
        self.time = time
    }

    /// A log event at `time` (the daemon's clock).
    public init(log change: LogWriteChange, time: Double?) {
        kind = .log(change)
        self.time = time
    }

    /// A state event at `time` (the daemon's clock).
    public init(state: StateSaveStatus, time: Double?) {
        kind = .state(state)
        self.time = time
    }

    /// The location event for a delivery, or `nil` if the fix cannot be a
    /// log record (see `LogRecord.init?(delivery:)`).
    public init?(delivery: Delivery) {
        guard let record = LogRecord(delivery: delivery) else { return nil }
        self.init(location: record)
    }

    /// Every `event` word a `watch` stream can carry, in the order the
    /// protocol documents them (each is some kind's `name`).
    public static let names = ["authorization", "prompt", "location", "error", "source", "receiver", "use", "broker", "log", "state"]

    /// The `event` word: `authorization`, `prompt`, `location`, `error`, `source`, `receiver`, `use`, `broker`, `log`, `state`.
    public var name: String {
        switch kind {
        case .location: "location"
        case .broker: "broker"
        case .log: "log"
        case .state: "state"
        case .engine(.authorization): "authorization"
        case .engine(.prompt), .engine(.promptWithdrawn): "prompt"
        case .engine(.error): "error"
        case .engine(.use): "use"
        case .engine(.source), .engine(.timeJump): "source"
        case .engine(.receiver): "receiver"
        }
    }

    /// The client the event is about; `nil` for source and state events (which every watcher gets).
    public var client: String? {
        switch kind {
        case .location(let record): record.client
        case .broker(let broker): broker.client
        case .log(let change): change.client
        case .state: nil
        case .engine(.authorization(let a)): a.client
        case .engine(.prompt(let p, _)), .engine(.promptWithdrawn(let p, _)): p.client
        case .engine(.error(let client, _, _)): client
        case .engine(.use(let change)): change.client
        case .engine(.source), .engine(.timeJump), .engine(.receiver): nil
        }
    }

    /// Whether a watcher of `filter` (`nil`: every client) gets this event.
    public func matches(client filter: String?) -> Bool {
        guard let filter, let client else { return true }
        return client == filter
    }

    /// The event line: compact JSON ending in `\n`.
    public func line() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(220)
        switch kind {
        case .location(let record):
            ByteText.append(#"{"event":"location","#, to: &out)
            record.appendMembers(to: &out)
            out.append(UInt8(ascii: "}"))
        case .broker(let broker):
            ByteText.append(object(with: broker.jsonMembers).serialized, to: &out)
        case .log(let change):
            ByteText.append(object(with: change.jsonMembers).serialized, to: &out)
        case .state(let state):
            ByteText.append(object(with: state.jsonMembers).serialized, to: &out)
        case .engine(let event):
            var members: [(String, JSONValue)] = []
            switch event {
            case .authorization(let authorization):
                members.append(contentsOf: authorization.jsonMembers)
            case .prompt(let prompt, let open):
                var promptMembers = prompt.jsonMembers
                promptMembers.insert(("open", .bool(open)), at: 2)
                members.append(contentsOf: promptMembers)
            case .promptWithdrawn(let prompt, let reason):
                var promptMembers = prompt.jsonMembers
                promptMembers.insert(contentsOf: [("open", .bool(false)), ("withdrawn", .bool(true))], at: 2)
                members.append(contentsOf: promptMembers)
                members.append(("message", .string(reason)))
            case .error(let client, let code, let message):
                members.append(contentsOf: [
                    ("client", .string(client)), ("code", .string(code.rawValue)), ("message", .string(message)),
                ])
            case .source(let state):
                members.append(("state", .string(state.rawValue)))
            case .use(let change):
                members.append(contentsOf: change.jsonMembers)
            case .timeJump(let jump):
                // A jump is seen on a usable fix: the source has a fix.
                members.append(("state", .string(SourceState.fix.rawValue)))
                members.append(("timeJump", .number(jump.seconds)))
                if UTCTime.isWritable(jump.from) { members.append(("from", .string(UTCTime.format(jump.from)))) }
                if UTCTime.isWritable(jump.to) { members.append(("to", .string(UTCTime.format(jump.to)))) }
                members.append(("message", .string(jump.sentence)))
            case .receiver(let change):
                if let from = change.from { members.append(("from", .string(from))) }
                members.append(("to", .string(change.to)))
                switch change.reason {
                case .first:
                    members.append(("reason", .string("first")))
                case .silent(let seconds):
                    members.append(("reason", .string("silent")))
                    if seconds.isFinite { members.append(("seconds", .number(seconds))) }
                case .better(let metres):
                    members.append(("reason", .string("better")))
                    if let metres { members.append(("metres", .number(metres))) }
                case .outranksAtStart(let seconds, let metres):
                    members.append(("reason", .string("start")))
                    members.append(("seconds", .number(seconds)))
                    if let metres { members.append(("metres", .number(metres))) }
                }
                members.append(("message", .string(change.sentence)))
            }
            ByteText.append(object(with: members).serialized, to: &out)
        }
        out.append(0x0A)
        return out
    }

    /// `event`, `time` (when it can be written), then `members`: every event but `location`.
    private func object(with members: [(String, JSONValue)]) -> JSONValue {
        var all: [(String, JSONValue)] = [("event", .string(name))]
        if let time, UTCTime.isWritable(time) { all.append(("time", .string(UTCTime.format(time)))) }
        if snapshot { all.append(("snapshot", .bool(true))) }
        return .object(all + members)
    }

    /// The event line as a `String`.
    public var text: String { String(decoding: line(), as: UTF8.self) }

    /// The event as a JSON object (what `locationctl watch --json` prints).
    public var json: JSONValue {
        // The line is produced by this file and always parses; the fallback keeps that a non-crash.
        (try? JSONValue.parse(line())) ?? .object([("event", .string(name))])
    }

    /// Reads an event object.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        try self.init(kindOf: value)
        do throws(FieldReader.FieldError) {
            snapshot = try FieldReader(value: value, context: "event").optionalBool("snapshot") ?? false
        } catch {
            throw error.decodeError
        }
    }

    /// Reads an event object's kind and time.
    private init(kindOf value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "event")
        let name: String
        let time: Double?
        do throws(FieldReader.FieldError) {
            name = try f.word("event", Self.names) { $0 }
            time = try f.optionalTime("time")
        } catch {
            throw error.decodeError
        }
        switch name {
        case "location":
            do {
                self.init(location: try LogRecord(json: value))
            } catch {
                throw ControlDecodeError("location event: \(error)")
            }
        case "broker":
            self.init(broker: try BrokerStatus(json: value), time: time)
        case "log":
            self.init(log: try LogWriteChange(json: value), time: time)
        case "state":
            self.init(state: try StateSaveStatus(json: value), time: time)
        case "use":
            self.init(.use(try UseChange(json: value)), time: time)
        case "authorization":
            self.init(.authorization(try ClientAuthorization(json: value)), time: time)
        case "prompt":
            let prompt = try Prompt(json: value)
            do throws(FieldReader.FieldError) {
                if try f.optionalBool("withdrawn") == true {
                    self.init(.promptWithdrawn(prompt, reason: try f.optionalString("message") ?? ""), time: time)
                } else {
                    self.init(.prompt(prompt, open: try f.optionalBool("open") ?? true), time: time)
                }
            } catch {
                throw error.decodeError
            }
        case "receiver":
            do throws(FieldReader.FieldError) {
                let reason: ReceiverChoice.Reason =
                    switch try f.word("reason", ["first", "silent", "better", "start"], { $0 }) {
                    case "first": .first
                    case "silent": .silent(seconds: try f.optionalNumber("seconds") ?? .infinity)
                    case "start": .outranksAtStart(seconds: try f.number("seconds"), metres: try f.optionalNumber("metres"))
                    default: .better(metres: try f.optionalNumber("metres"))
                    }
                self.init(
                    .receiver(ReceiverChoice.Switch(from: try f.optionalString("from"), to: try f.string("to"), reason: reason)),
                    time: time)
            } catch {
                throw error.decodeError
            }
        case "error":
            do throws(FieldReader.FieldError) {
                let code = try f.word("code", ["location-unknown", "denied"]) { ClientErrorCode(rawValue: $0) }
                self.init(
                    .error(client: try f.string("client"), code: code, message: try f.text("message")),
                    time: time)
            } catch {
                throw error.decodeError
            }
        default:
            do throws(FieldReader.FieldError) {
                let state = try f.word("state", SourceState.allCases.map(\.rawValue)) { SourceState(rawValue: $0) }
                if let seconds = try f.optionalNumber("timeJump") {
                    // `at` is the daemon's monotonic clock, which the event does not carry.
                    let to = try f.optionalTime("to") ?? .nan
                    let from = try f.optionalTime("from") ?? to + seconds
                    self.init(.timeJump(TimeJump(from: from, to: to, at: 0)), time: time)
                    return
                }
                self.init(.source(state), time: time)
            } catch {
                throw error.decodeError
            }
        }
    }
}

extension ControlEvent {
    /// What a new watcher gets first (docs/authorization.md §13: as Core Location calls
    /// `locationManagerDidChangeAuthorization` at creation): the source state,
    /// each client's authorization, then each open prompt, then each log failing now, then the state save
    /// while it fails — only `client`'s (and the state's) when the watcher named one.
    public static func snapshot(
        source: SourceState, authorizations: [ClientAuthorization], prompts: [Prompt], failingLogs: [LogWriteChange] = [],
        stateSave: StateSaveStatus? = nil, time: Double?, client: String?
    ) -> [ControlEvent] {
        var events = [ControlEvent(.source(source), time: time)]
        events += authorizations.map { ControlEvent(.authorization($0), time: time) }
        events += prompts.map { ControlEvent(.prompt($0, open: true), time: time) }
        events += failingLogs.map { ControlEvent(log: $0, time: time) }
        if let stateSave, !stateSave.ok { events.append(ControlEvent(state: stateSave, time: time)) }
        return events.filter { $0.matches(client: client) }.map { event in
            var event = event
            event.snapshot = true
            return event
        }
    }
}
