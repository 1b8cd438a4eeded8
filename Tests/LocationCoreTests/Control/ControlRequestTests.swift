import Testing
@testable import LocationCore
@testable import LocationProtocol
@testable import LocationValues

@Suite struct ControlRequestTests {
    static let operations: [ControlRequest.Operation] = [
        .hello, .status(client: nil), .status(client: "logger"), .prompts, .watch(client: nil),
        .watch(client: "logger"), .report(client: nil, since: nil), .report(client: "logger", since: 3600),
        .command(.services(on: true)), .command(.services(on: false)),
        .command(.authorize(client: "logger", status: .never)), .command(.authorize(client: "logger", status: .ask)),
        .command(.authorize(client: "logger", status: .whileUsing)),
        .command(.authorize(client: "logger", status: .always)),
        .command(.accuracy(client: "logger", full: true)), .command(.accuracy(client: "logger", full: false)),
        .command(.request(client: "logger", kind: .whileUsing)), .command(.request(client: "logger", kind: .always)),
        .command(.answer(client: "logger", answer: .allowOnce)),
        .command(.answer(client: "logger", answer: .changeToAlways)),
        .command(.answer(client: "logger", answer: .allowWhileUsing, precise: false)),
        .command(.answer(client: "logger", answer: .allowOnce, precise: true)),
        .command(.share(client: "logger")), .command(.reset(client: "logger")), .command(.requestFullAccuracy(client: "logger", purpose: "survey")),
        .command(.session(client: "logger", inUse: true)), .command(.session(client: "logger", inUse: false)),
        .command(.start(client: "logger")), .command(.stop(client: "logger")),
        .command(.locate(client: "logger", timeout: nil)), .command(.locate(client: "logger", timeout: 12.5)),
    ]

    @Test(arguments: operations)
    func roundTripsEveryOperation(operation: ControlRequest.Operation) throws {
        for id: JSONValue? in [nil, 7, "abc", .null, true] {
            let request = ControlRequest(id: id, operation)
            let line = request.line()
            #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
            let back = try ControlRequest.decode(line).get()
            #expect(back == request)
        }
    }

    @Test func writesTheSpecExample() {
        let request = ControlRequest(id: 7, .command(.authorize(client: "logger", status: .never)))
        #expect(request.line() == #"{"id":7,"cmd":"authorize","client":"logger","status":"never"}"# + "\n")
    }

    @Test func theNewRequestsReadAsTheProtocolWritesThem() throws {
        let approximate = try ControlRequest.decode(
            #"{"cmd":"answer","client":"logger","answer":"allow-while-using","precise":false}"#).get()
        #expect(approximate.operation == .command(.answer(client: "logger", answer: .allowWhileUsing, precise: false)))
        #expect(try ControlRequest.decode(#"{"cmd":"reset","client":"logger"}"#).get().operation == .command(.reset(client: "logger")))
        let bad = ControlRequest.decode(#"{"cmd":"answer","client":"logger","answer":"deny","precise":"no"}"#)
        #expect(throws: ProtocolError.self) { try bad.get() }
        // Without the switch the line is what it always was.
        #expect(ControlRequest(.command(.answer(client: "l", answer: .deny))).line() == #"{"cmd":"answer","client":"l","answer":"deny"}"# + "\n")
    }

    @Test func readOnlyRequestsNeedOnlyReadAccess() {
        for operation in Self.operations {
            let readOnly = ControlRequest.readOnlyCommandNames.contains(operation.name)
            #expect(operation.access == (readOnly ? .read : .change), "\(operation.name)")
        }
        #expect(Set(Self.operations.map(\.name)) == Set(ControlRequest.commandNames))
    }

    @Test(arguments: [
        // (line, code, words the message must contain, id expected)
        ("", "bad-request", "not valid JSON", nil),
        ("{", "bad-request", "not valid JSON", nil),
        ("hello", "bad-request", "not valid JSON", nil),
        ("[1]", "bad-request", "must be a JSON object", nil),
        ("42", "bad-request", "must be a JSON object", nil),
        (#"{"id":[1],"cmd":"hello"}"#, "bad-request", "\"id\" must be", nil),
        (#"{"id":{"a":1},"cmd":"hello"}"#, "bad-request", "\"id\" must be", nil),
        (#"{"id":3}"#, "bad-request", "needs \"cmd\"", JSONValue.number(3)),
        (#"{"id":3,"cmd":5}"#, "bad-request", "\"cmd\" must be a string", JSONValue.number(3)),
        (#"{"id":"x","cmd":"stauts"}"#, "unknown-command", "did you mean \"status\"", JSONValue.string("x")),
        (#"{"id":1,"cmd":"frobnicate"}"#, "unknown-command", "accepted: hello, status", JSONValue.number(1)),
        (#"{"id":1,"cmd":"authorize","status":"never"}"#, "invalid-argument", "needs \"client\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"authorize","client":"logger"}"#, "invalid-argument", "needs \"status\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"authorize","client":"logger","status":"whileusing"}"#, "invalid-argument",
         "did you mean \"while-using\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"authorize","client":"logger","status":"restricted"}"#, "invalid-argument",
         "cannot be \"restricted\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"authorize","client":7,"status":"never"}"#, "invalid-argument", "\"client\" of authorize must be",
         JSONValue.number(1)),
        (#"{"id":1,"cmd":"authorize","client":"","status":"never"}"#, "invalid-argument", "\"client\" of authorize must be",
         JSONValue.number(1)),
        (#"{"id":1,"cmd":"services","state":true}"#, "invalid-argument", "must be a string", JSONValue.number(1)),
        (#"{"id":1,"cmd":"services","state":"of"}"#, "invalid-argument", "did you mean \"off\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"accuracy","client":"l","accuracy":"precise"}"#, "invalid-argument", "\"full\", \"reduced\"",
         JSONValue.number(1)),
        (#"{"id":1,"cmd":"request","client":"l","kind":"sometimes"}"#, "invalid-argument", "\"while-using\", \"always\"",
         JSONValue.number(1)),
        (#"{"id":1,"cmd":"answer","client":"l","answer":"allow-onec"}"#, "invalid-argument", "did you mean \"allow-once\"",
         JSONValue.number(1)),
        (#"{"id":1,"cmd":"request-full-accuracy","client":"l"}"#, "invalid-argument", "needs \"purpose\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"session","client":"l","state":"start"}"#, "invalid-argument", "\"begin\", \"end\"",
         JSONValue.number(1)),
        (#"{"id":1,"cmd":"locate","client":"l","timeout":"10"}"#, "invalid-argument", "must be a number", JSONValue.number(1)),
        (#"{"id":1,"cmd":"locate","client":"l","timeout":0}"#, "invalid-argument", "above 0", JSONValue.number(1)),
        (#"{"id":1,"cmd":"locate","client":"l","timeout":-5}"#, "invalid-argument", "above 0", JSONValue.number(1)),
        (#"{"id":1,"cmd":"locate","client":"l","timeout":1e6}"#, "invalid-argument", "at most 86400", JSONValue.number(1)),
        (#"{"id":1,"cmd":"status","clinet":"logger"}"#, "invalid-argument", "did you mean \"client\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"hello","extra":1}"#, "invalid-argument", "has no field \"extra\"", JSONValue.number(1)),
        (#"{"id":1,"cmd":"watch","client":false}"#, "invalid-argument", "\"client\" of watch must be", JSONValue.number(1)),
    ] as [(String, String, String, JSONValue?)])
    func refusesMalformedRequestsWithACodeAndTheId(line: String, code: String, words: String, id: JSONValue?) {
        switch ControlRequest.decode(line) {
        case .success(let request):
            Issue.record("accepted \(line) as \(request)")
        case .failure(let error):
            #expect(error.code.rawValue == code, "\(line): \(error)")
            #expect(error.message.contains(words), "\(line): \(error.message)")
            #expect(error.id == id)
            // The reply echoes the id and carries the code.
            let reply = error.reply.line()
            #expect(reply.contains(#""ok":false"#) && reply.contains(#""code":"\#(code)""#))
        }
    }

    @Test func refusesLinesLongerThan64KiB() {
        let padding = String(repeating: "x", count: ControlProtocol.maximumLineLength)
        let line = #"{"id":1,"cmd":"hello","pad":""# + padding + "\"}\n"
        #expect(throws: ProtocolError.self) { try ControlRequest.decode(line).get() }
        if case .failure(let error) = ControlRequest.decode(line) { #expect(error.code == .tooLong) }
        // Exactly at the limit is still read (and then judged on its content).
        let fits = #"{"cmd":"hello"}"# + String(repeating: " ", count: ControlProtocol.maximumLineLength - 15)
        #expect(fits.utf8.count == ControlProtocol.maximumLineLength)
        #expect((try? ControlRequest.decode(fits + "\r\n").get()) == ControlRequest(.hello))
    }

    @Test func toleratesCarriageReturnsAndWhitespace() throws {
        #expect(try ControlRequest.decode("  {\"cmd\" : \"prompts\"}  \r\n").get() == ControlRequest(.prompts))
    }

    @Test func aNullClientMeansEveryClient() throws {
        #expect(try ControlRequest.decode(#"{"cmd":"status","client":null}"#).get().operation == .status(client: nil))
    }
}
