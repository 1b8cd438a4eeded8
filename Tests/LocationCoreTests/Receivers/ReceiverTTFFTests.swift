import Testing
@testable import LocationCore
@testable import LocationProtocol

/// Each receiver's time to first fix in `status` (#31 item 4): from its first report, or its
/// source's latest reconnect, to its first usable fix after it, on the daemon's monotonic clock.
@Suite struct ReceiverTTFFTests {
    /// One step of a run, `at` seconds after the start.
    enum Step: Sendable, CustomStringConvertible {
        /// A report of `device`, usable (a 3D fix) or not (no fix).
        case report(at: Double, device: String, usable: Bool)
        /// The source's state changed.
        case source(at: Double, SourceState)

        var description: String {
            switch self {
            case .report(let at, let device, let usable): "\(device)@\(at)\(usable ? "+" : "-")"
            case .source(let at, let state): "\(state.rawValue)@\(at)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        /// TTFF per device in the end (`nil`: no usable fix since it appeared or its source reconnected).
        var expected: [String: Double?]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a first report with a fix is 0 s", steps: [.report(at: 0, device: "A", usable: true)], expected: ["A": 0]),
        Case(
            name: "no fix for 31 s, then a fix",
            steps: (0..<31).map { .report(at: Double($0), device: "A", usable: false) } + [.report(at: 31, device: "A", usable: true)],
            expected: ["A": 31]),
        Case(
            name: "a receiver that appears late counts from its first report",
            steps: [
                .source(at: 0, .connected), .report(at: 1, device: "A", usable: true), .report(at: 10, device: "B", usable: false),
                .report(at: 14, device: "B", usable: true),
            ],
            expected: ["A": 0, "B": 4]),
        Case(
            name: "the source reconnecting starts it over",
            steps: [
                .report(at: 0, device: "A", usable: true), .source(at: 5, .connecting), .source(at: 8, .connected),
                .report(at: 9, device: "A", usable: false), .report(at: 20, device: "A", usable: true),
                .report(at: 21, device: "A", usable: true),
            ],
            expected: ["A": 12]),
        Case(
            name: "still searching after a reconnect has none",
            steps: [
                .report(at: 0, device: "A", usable: true), .source(at: 5, .connecting), .source(at: 6, .connected),
                .report(at: 7, device: "A", usable: false),
            ],
            expected: ["A": nil]),
        Case(
            name: "a fix lost and found again is no new first fix",
            steps: [
                .report(at: 0, device: "A", usable: false), .report(at: 3, device: "A", usable: true),
                .source(at: 4, .noFix), .report(at: 4, device: "A", usable: false), .report(at: 30, device: "A", usable: true),
            ],
            expected: ["A": 3]),
    ]

    @Test(arguments: cases)
    func timeToFirstFixPerReceiver(_ run: Case) throws {
        var engine = TestEngine.engine([TestEngine.client("best", authorization: .always)])
        var end = TestEngine.t0
        for step in run.steps {
            switch step {
            case .report(let at, let device, let usable):
                var fix = TestEngine.fix(at, mode: usable ? .threeD : .noFix)
                fix.device = device
                end = TestEngine.t0 + at
                _ = engine.handle(.fix(fix), now: end)
            case .source(let at, let state):
                end = TestEngine.t0 + at
                _ = engine.handle(.source(state), now: end)
            }
        }
        let receivers = engine.status(now: end + 1).receivers
        #expect(receivers.map(\.device) == run.expected.keys.sorted(), "\(run.steps)")
        for receiver in receivers {
            let expected = try #require(run.expected[receiver.device])
            #expect(receiver.timeToFirstFix == expected, "\(receiver.device) in \(run.steps)")
        }
    }

    @Test func statusJSONCarriesTTFFAndSourceAndReadsThemBack() throws {
        let receiver = ReceiverStatus(
            device: "/dev/ttyACM0", state: .followed, quality: ReceiverQuality(mode: .threeD, horizontalError: 2.1),
            lastFixAge: 0.4, fixes: 40, clients: ["logger"], timeToFirstFix: 31.2, source: "gpsd 127.0.0.1:2947")
        let line = receiver.json.serialized
        #expect(line.hasPrefix(#"{"device":"/dev/ttyACM0","source":"gpsd 127.0.0.1:2947","state":"followed""#), "\(line)")
        #expect(line.contains(#""lastFixAge":0.4,"ttff":31.2,"fixes":40"#), "\(line)")
        #expect(try ReceiverStatus(json: receiver.json) == receiver)
        var searching = receiver
        searching.timeToFirstFix = nil
        #expect(!searching.json.serialized.contains("ttff"))
    }
}
