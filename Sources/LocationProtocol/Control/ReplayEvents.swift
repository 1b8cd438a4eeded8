import LocationValues

/// One state change of a replay (docs/protocol.md, "Replay events"): apply `command` before the
/// first fix whose time is at or after `at`.
public struct ReplayEvent: Sendable, Hashable {
    /// UTC seconds.
    public var at: Double
    /// The state-changing command.
    public var command: Command
    /// The 1-based line of the events file it came from.
    public var line: Int

    /// An event from its parts.
    public init(at: Double, command: Command, line: Int) {
        self.at = at
        self.command = command
        self.line = line
    }
}

/// Why an events file was refused: every bad line, by number.
public struct ReplayEventsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One bad line.
    public struct Problem: Error, Sendable, Hashable {
        /// 1-based line number.
        public var line: Int
        /// What is wrong with it.
        public var message: String
    }

    /// The bad lines, in file order.
    public var problems: [Problem]

    /// `line 3: …` per problem (the first ten, then how many more).
    public var description: String {
        var lines = problems.prefix(10).map { "line \($0.line): \($0.message)" }
        if problems.count > 10 { lines.append("… and \(problems.count - 10) more bad lines") }
        return lines.joined(separator: "\n")
    }
}

/// The `--events FILE` format: one control request per line with an `at`
/// time, blank lines and `#` comments skipped.
///
/// `{"at":"2026-03-14T23:52:00Z","cmd":"authorize","client":"logger","status":"never"}`
public enum ReplayEvents {
    /// Parses a whole events file. The events come back ordered by `at`;
    /// events with equal times keep their file order. Every bad line is
    /// reported at once; read-only requests (`status`, `watch`, …) are refused
    /// because they change nothing in a replay.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ReplayEventsError) -> [ReplayEvent] {
        var events: [ReplayEvent] = []
        var problems: [ReplayEventsError.Problem] = []
        var lineNumber = 0
        var line: [UInt8] = []
        func finishLine() {
            lineNumber += 1
            defer { line.removeAll(keepingCapacity: true) }
            switch event(line: line, number: lineNumber) {
            case .none: break
            case .some(.success(let event)): events.append(event)
            case .some(.failure(let problem)): problems.append(problem)
            }
        }
        for byte in bytes {
            if byte == 0x0A { finishLine() } else { line.append(byte) }
        }
        if !line.isEmpty { finishLine() }
        guard problems.isEmpty else { throw ReplayEventsError(problems: problems) }
        // Stable: the index breaks ties, so equal times keep file order.
        return events.enumerated().sorted { a, b in
            a.element.at != b.element.at ? a.element.at < b.element.at : a.offset < b.offset
        }.map(\.element)
    }

    /// Parses an events file given as text.
    public static func parse(_ text: String) throws(ReplayEventsError) -> [ReplayEvent] {
        try parse(Array(text.utf8))
    }

    /// One line: `nil` for blank and comment lines.
    private static func event(line: [UInt8], number: Int) -> Result<ReplayEvent, ReplayEventsError.Problem>? {
        var bytes = line[...]
        if bytes.last == 0x0D { bytes.removeLast() }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        if bytes.isEmpty || bytes.first == UInt8(ascii: "#") { return nil }
        func problem(_ message: String) -> Result<ReplayEvent, ReplayEventsError.Problem> {
            .failure(ReplayEventsError.Problem(line: number, message: message))
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            return problem("not JSON (\(error)); write one request object per line")
        }
        guard value.objectValue != nil else { return problem("an event must be a JSON object with \"at\" and \"cmd\"") }
        guard let atValue = value["at"] else {
            return problem("missing \"at\" (ISO 8601 UTC time, e.g. \"2026-03-14T23:52:00Z\")")
        }
        guard let atText = atValue.stringValue, let at = UTCTime.parse(atText) else {
            return problem("\"at\" must be ISO 8601 UTC text with Z or an offset, e.g. \"2026-03-14T23:52:00Z\"")
        }
        switch ControlRequest.decode(value, extraKeys: ["at"]) {
        case .failure(let error):
            return problem(error.message)
        case .success(let request):
            guard case .command(let command) = request.operation else {
                let changing = ControlRequest.commandNames.filter { !ControlRequest.readOnlyCommandNames.contains($0) }
                return problem(
                    "\"\(request.operation.name)\" only reads state and does nothing in a replay; events may be: "
                        + changing.joined(separator: ", "))
            }
            return .success(ReplayEvent(at: at, command: command, line: number))
        }
    }
}
