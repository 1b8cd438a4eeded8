import LocationValues

/// What a `status` reply carries: the engine's status, plus what only the
/// daemon knows — its wall-clock time (so ages are the daemon's, not the
/// reader's) and a name for the source (`gpsd 127.0.0.1:2947`).
public struct StatusReport: Sendable, Hashable {
    /// The engine's state at the moment of the request.
    public var status: EngineStatus
    /// The daemon's UTC time when it answered, if it said.
    public var time: Double?
    /// The source as people name it, e.g. `gpsd 127.0.0.1:2947` or `nmea /dev/ttyACM0`.
    public var sourceName: String?
    /// The output faces' sections (`StatusSection`), written after everything else, in the faces' order.
    public var sections = StatusSections()
    /// The programs connected to the clients' program sockets now (`ProgramsSection`).
    public var programs: [ConnectedProgram] {
        get { sections[ProgramsSection.self]?.programs ?? [] }
        set { sections[ProgramsSection.self, default: ProgramsSection()].programs = newValue }
    }
    /// Per client, what its program sockets turned away since the start (only clients with any).
    public var programCounts: [String: ProgramCounts] {
        get { sections[ProgramsSection.self]?.counts ?? [:] }
        set { sections[ProgramsSection.self, default: ProgramsSection()].counts = newValue }
    }
    /// Each publishing client's MQTT connection, in config order (empty: no client publishes; `MQTTSection`).
    public var brokers: [BrokerStatus] {
        get { sections[MQTTSection.self]?.brokers ?? [] }
        set { sections[MQTTSection.self, default: MQTTSection()].brokers = newValue }
    }
    /// Each receiver's latest sky view (satellites used and seen, DOPs, and for a reader who may
    /// see positions the satellites), by device name.
    public var skies: [SkyReport] = []
    /// The freshest of `skies` (what a reader of one receiver wants), if any.
    public var sky: SkyView? { freshestSky?.view }
    /// Seconds since `sky` arrived, on the daemon's monotonic clock.
    public var skyAge: Double? { freshestSky?.age }
    /// While the source is not connected: its attempts and waits so far (gpsd, or an NMEA device).
    public var sourceOutage: SourceOutage?
    /// What the source has read since the start, if it said (both sources say it at least once a second).
    public var sourceCounts: SourceCounts?
    /// Whether the state (the switch and every decision) is being saved, if the daemon said.
    public var stateSave: StateSaveStatus?
    /// Each source in config order (`[source]` first), if the daemon said; `sourceOutage` and
    /// `sourceCounts` above are the first source's, and `status.source` all of theirs combined.
    public var sources: [SourceStatus] = []
    /// Who this report was written for (set by `Disclosure`), so the next steps in it are put
    /// to the reader as what it may run or what it must ask for; `nil` when the daemon did not say.
    public var reader: ControlRole?

    /// A report from its parts; `sections`, when given, stands for `brokers`, `programs` and `programCounts`.
    public init(
        status: EngineStatus, time: Double? = nil, sourceName: String? = nil, brokers: [BrokerStatus] = [],
        sky: SkyView? = nil, skyAge: Double? = nil, programs: [ConnectedProgram] = [],
        programCounts: [String: ProgramCounts] = [:], sourceOutage: SourceOutage? = nil,
        sourceCounts: SourceCounts? = nil, stateSave: StateSaveStatus? = nil, sources: [SourceStatus] = [],
        skies: [SkyReport] = [], reader: ControlRole? = nil, sections: StatusSections? = nil
    ) {
        self.reader = reader
        self.stateSave = stateSave
        self.sources = sources
        self.sourceOutage = sourceOutage
        self.sourceCounts = sourceCounts
        self.status = status
        self.time = time
        self.sourceName = sourceName
        self.skies = skies.isEmpty ? sky.map { [SkyReport(view: $0, age: skyAge)] } ?? [] : skies
        self.sections = sections ?? StatusSections([
            MQTTSection(brokers: brokers), ProgramsSection(programs: programs, counts: programCounts),
        ])
    }

    /// The sky view that arrived last (the smallest age; the first when none has one).
    private var freshestSky: SkyReport? {
        skies.min { ($0.age ?? .infinity) < ($1.age ?? .infinity) } ?? skies.first
    }

    /// Receiver clock minus system clock, in seconds, from the last fix: its time against the
    /// daemon's time when it arrived (`time` − `lastFixAge`); `nil` without both.
    public var receiverClockOffset: Double? {
        guard let time, let fixTime = status.lastFix?.time, let age = status.lastFixAge else { return nil }
        let offset = fixTime - (time - age)
        return offset.isFinite ? offset : nil
    }

    /// The same report with only `client` (and everything not per client),
    /// or `nil` if no client has that name.
    public func only(client: String) -> StatusReport? {
        guard let match = status.clients.first(where: { $0.authorization.client == client }) else { return nil }
        var copy = self
        copy.status.clients = [match]
        copy.sections = sections.only(client: client)
        return copy
    }

    /// `{"time":…,"sourceName":…,"stateSave":{…},"services":…,"source":…,"lastFix":{…},"lastFixAge":…,"clients":[…],…,
    /// "clockOffset":…,"sky":{…},"skies":[…]}`; `clockOffset` is `receiverClockOffset`, written for people and
    /// scripts and recomputed, not read, on decoding.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let time, UTCTime.isWritable(time) { members.append(("time", .string(UTCTime.format(time)))) }
        if let sourceName { members.append(("sourceName", .string(sourceName))) }
        if let stateSave { members.append(("stateSave", stateSave.json)) }
        members.append(contentsOf: status.jsonMembers)
        if let sourceOutage { members.append(("outage", sourceOutage.json)) }
        if let sourceCounts { members.append(("sourceCounts", sourceCounts.json)) }
        if !sources.isEmpty { members.append(("sources", .array(sources.map(\.json)))) }
        if let offset = receiverClockOffset { members.append(("clockOffset", .number(offset))) }
        if let freshest = freshestSky {
            // `sky` for readers of one receiver: the freshest view's counts and DOPs; `skies` has every receiver's.
            members.append(("sky", SkyReport(view: freshest.view.counts, age: freshest.age).json))
            members.append(("skies", .array(skies.map(\.json))))
        }
        members.append(contentsOf: sections.jsonMembers)
        if let reader {
            members.append(("reader", .object([("operator", .bool(reader.isOperator)), ("apps", .array(reader.apps.sorted().map { .string($0) }))])))
        }
        return .object(members)
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "status")
        do throws(FieldReader.FieldError) {
            time = try f.optionalTime("time")
            sourceName = try f.optionalString("sourceName")
        } catch {
            throw error.decodeError
        }
        status = try EngineStatus(json: value)
        if let outage = value["outage"], outage != .null { sourceOutage = try SourceOutage(json: outage) }
        if let counts = value["sourceCounts"], counts != .null { sourceCounts = try SourceCounts(json: counts) }
        if let save = value["stateSave"], save != .null { stateSave = try StateSaveStatus(json: save) }
        for item in value["sources"]?.arrayValue ?? [] { sources.append(try SourceStatus(json: item)) }
        if let list = value["skies"]?.arrayValue {
            for item in list { skies.append(try SkyReport(json: item)) }
        } else if let view = value["sky"], view != .null {
            skies = [try SkyReport(json: view)]
        }
        sections = try StatusSections(json: value)
        if let role = value["reader"], role != .null {
            reader = ControlRole(
                isOperator: role["operator"]?.boolValue ?? false, apps: Set((role["apps"]?.arrayValue ?? []).compactMap(\.stringValue)))
        }
    }
}

extension EngineStatus {
    /// `services`, `source`, `lastFix`, `lastFixAge`, `clients`.
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("services", .bool(services)), ("source", .string(source.rawValue))]
        if let lastFix { members.append(("lastFix", lastFix.json)) }
        if let lastFixAge, lastFixAge.isFinite { members.append(("lastFixAge", .number(lastFixAge))) }
        members.append(("clients", .array(clients.map(\.json))))
        members.append(("timeJumps", .number(Double(timeJumps))))
        if let jump = lastTimeJump {
            var j: [(String, JSONValue)] = [("seconds", .number(jump.seconds))]
            if UTCTime.isWritable(jump.from) { j.append(("from", .string(UTCTime.format(jump.from)))) }
            if UTCTime.isWritable(jump.to) { j.append(("to", .string(UTCTime.format(jump.to)))) }
            if let age = lastTimeJumpAge, age.isFinite { j.append(("age", .number(age))) }
            members.append(("lastTimeJump", .object(j)))
        }
        if !receivers.isEmpty { members.append(("receivers", .array(receivers.map(\.json)))) }
        return members
    }

    /// The status as a JSON object.
    public var json: JSONValue { .object(jsonMembers) }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "status")
        let services: Bool
        let source: SourceState
        let age: Double?
        let list: [JSONValue]
        do throws(FieldReader.FieldError) {
            services = try f.bool("services")
            source = try f.word("source", SourceState.allCases.map(\.rawValue)) { SourceState(rawValue: $0) }
            age = try f.optionalNumber("lastFixAge")
            list = try f.array("clients")
        } catch {
            throw error.decodeError
        }
        var lastFix: Fix?
        if let fix = value["lastFix"], fix != .null { lastFix = try Fix(json: fix) }
        var clients: [ClientStatus] = []
        for item in list { clients.append(try ClientStatus(json: item)) }
        self.init(services: services, source: source, lastFix: lastFix, lastFixAge: age, clients: clients)
        do throws(FieldReader.FieldError) {
            timeJumps = try f.optionalInt("timeJumps") ?? 0
            if let jump = value["lastTimeJump"], jump != .null {
                let j = FieldReader(value: jump, context: "lastTimeJump")
                let seconds = try j.number("seconds")
                let to = try j.optionalTime("to") ?? .nan
                // `at` is the daemon's monotonic clock; the reply carries the age instead.
                lastTimeJump = TimeJump(from: try j.optionalTime("from") ?? to + seconds, to: to, at: 0)
                lastTimeJumpAge = try j.optionalNumber("age")
            }
        } catch {
            throw error.decodeError
        }
        for item in value["receivers"]?.arrayValue ?? [] { receivers.append(try ReceiverStatus(json: item)) }
    }
}

extension ClientStatus {
    /// The authorization's members, then `inUse`, `updating`, `locatePending`, `locateLeft`,
    /// `prompt`, `delivering`, `eligible`, `why` (the sentence), `suggestion` (the next
    /// step's `Command.words`, e.g. `authorize logger while-using`), `lastDelivered`,
    /// `lastDeliveredAge`, `delivered`, `dropped` (every reason's count), `logWrite` (when the daemon said),
    /// `rawLogs` (the raw capture files written now, when any).
    public var json: JSONValue {
        var members = authorization.jsonMembers
        members.append(("inUse", .bool(inUse)))
        members.append(("updating", .bool(updating)))
        members.append(("locatePending", .bool(locatePending)))
        if let locateLeft, locateLeft.isFinite { members.append(("locateLeft", .number(locateLeft))) }
        if let prompt { members.append(("prompt", prompt.json)) }
        members.append(("delivering", .bool(delivering)))
        members.append(("eligible", .bool(eligible)))
        members.append(("why", .string(reason)))
        if let suggestion { members.append(("suggestion", .string(suggestion.words.joined(separator: " ")))) }
        if let lastDelivered, UTCTime.isWritable(lastDelivered) {
            members.append(("lastDelivered", .string(UTCTime.format(lastDelivered))))
        }
        if let lastDeliveredAge, lastDeliveredAge.isFinite { members.append(("lastDeliveredAge", .number(lastDeliveredAge))) }
        members.append(("delivered", .number(Double(deliveredCount))))
        members.append(("dropped", .object(DropReason.allCases.map { ($0.rawValue, .number(Double(drops[$0]))) })))
        if let logWrite { members.append(("logWrite", logWrite.json)) }
        if !rawLogs.isEmpty { members.append(("rawLogs", .array(rawLogs.map { .string($0) }))) }
        return .object(members)
    }

    /// Reads what `json` writes.
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let authorization = try ClientAuthorization(json: value)
        var prompt: Prompt?
        if let p = value["prompt"], p != .null { prompt = try Prompt(json: p) }
        let f = FieldReader(value: value, context: "client status")
        var suggestion: Command?
        if let text = value["suggestion"]?.stringValue {
            suggestion = try Command(words: text.split(separator: " ").map(String.init))
        }
        do throws(FieldReader.FieldError) {
            self.init(
                authorization: authorization, inUse: try f.bool("inUse"), updating: try f.bool("updating"),
                locatePending: try f.optionalBool("locatePending") ?? false, prompt: prompt,
                delivering: try f.bool("delivering"), reason: try f.text("why"),
                suggestion: suggestion, lastDelivered: try f.optionalTime("lastDelivered"),
                deliveredCount: try f.optionalInt("delivered") ?? 0, drops: try Self.drops(value["dropped"]),
                lastDeliveredAge: try f.optionalNumber("lastDeliveredAge"), eligible: try f.optionalBool("eligible"),
                locateLeft: try f.optionalNumber("locateLeft"))
        } catch {
            throw error.decodeError
        }
        if let log = value["logWrite"], log != .null { logWrite = try LogWriteStatus(json: log) }
        if case .array(let paths)? = value["rawLogs"] { rawLogs = paths.compactMap(\.stringValue) }
    }
}

extension ClientStatus {
    /// Reads `dropped`: an object of reason words and whole numbers; absent is all zero, an unknown
    /// reason (a newer daemon's) is skipped.
    static func drops(_ value: JSONValue?) throws(FieldReader.FieldError) -> DropCounters {
        var drops = DropCounters()
        guard let value, value != .null else { return drops }
        let f = FieldReader(value: value, context: "dropped")
        for reason in DropReason.allCases {
            drops[reason] = try f.optionalInt(reason.rawValue) ?? 0
        }
        return drops
    }
}

extension Fix {
    /// `time` (ISO 8601, ms), `mode`, then `lat`, `lon`, `alt`, `hAcc`,
    /// `vAcc`, `speed`, `course`, `sats` when known and finite. Numbers are
    /// written in full (shortest round-trip form), not rounded as in the log.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let time, UTCTime.isWritable(time) { members.append(("time", .string(UTCTime.format(time)))) }
        members.append(("mode", .number(Double(mode.rawValue))))
        let numbers: [(String, Double?)] = [
            ("lat", latitude), ("lon", longitude), ("alt", altitude), ("hAcc", horizontalError),
            ("vAcc", verticalError), ("speed", speed), ("course", course),
        ]
        for (key, number) in numbers {
            if let number, number.isFinite { members.append((key, .number(number))) }
        }
        if let satellitesUsed { members.append(("sats", .number(Double(satellitesUsed)))) }
        return .object(members)
    }

    /// Reads what `json` writes; a missing `lat`/`lon` is NaN (no position).
    public init(json value: JSONValue) throws(ControlDecodeError) {
        let f = FieldReader(value: value, context: "fix")
        do throws(FieldReader.FieldError) {
            let modeNumber = try f.optionalInt("mode") ?? 0
            guard let mode = FixMode(rawValue: modeNumber) else {
                throw FieldReader.FieldError("\"mode\" of fix must be 0, 1, 2 or 3")
            }
            self.init(
                time: try f.optionalTime("time"), mode: mode,
                latitude: try f.optionalNumber("lat") ?? .nan, longitude: try f.optionalNumber("lon") ?? .nan,
                altitude: try f.optionalNumber("alt"), horizontalError: try f.optionalNumber("hAcc"),
                verticalError: try f.optionalNumber("vAcc"), speed: try f.optionalNumber("speed"),
                course: try f.optionalNumber("course"), satellitesUsed: try f.optionalInt("sats"))
        } catch {
            throw error.decodeError
        }
    }
}
