import LocationProtocol
import LocationValues

/// `state.json` through the project's JSON codec, like every other record:
/// one object, keys in a fixed order, so the same state always gives the same
/// bytes.
///
/// ```json
/// {"version":2,"services":true,"clients":[{"name":"logger","status":"always","provisional":false,
///  "fullAccuracy":false,"upgradePromptShown":false,"shareConsent":false,"reduced":{"offsetEast":-0.0632,
///  "offsetNorth":-0.5419,"random":["ab004e097d6a33bc","bff00f1ee0eac313","3a6b97164cecee24","89f0de5fd6390c76"],
///  "driftHour":492624,"lastDelivery":1773446400}}]}
/// ```
///
/// Version 1 (the Codable encoding) may lack `shareConsent` (files from
/// before the location button's consent), which reads as not consented; a
/// version 1 file that has it keeps it. Members this build does not know are
/// ignored.
extension SavedState {
    /// The state as a JSON object.
    public var json: JSONValue {
        .object([
            ("version", .number(Double(Self.currentVersion))), ("services", .bool(services)),
            ("clients", .array(clients.map(\.json))),
        ])
    }

    /// Reads a state object; refuses a version this build does not read and anything malformed, naming where.
    public init(json value: JSONValue) throws(SavedStateError) {
        var skipped: [SavedStateError] = []
        try self.init(json: value, skipped: &skipped)
        if let first = skipped.first { throw first }
    }

    /// Reads a state object row by row: a client that cannot be read (or names a client read
    /// before) is added to `skipped`, naming where, and left out; the others are kept. The top
    /// (`version`, `services`, the `clients` array itself) must be whole.
    public init(json value: JSONValue, skipped: inout [SavedStateError]) throws(SavedStateError) {
        let top = StateField(value: value, path: "")
        let version = try top.member("version").int()
        guard version >= 1, version <= Self.currentVersion else {
            throw SavedStateError(
                "state format version \(version) is not one this locationd reads (1...\(Self.currentVersion))")
        }
        let services = try top.member("services").bool()
        var clients: [SavedClientState] = []
        var names = Set<String>()
        for client in try top.member("clients").elements() {
            do throws(SavedStateError) {
                let read = try SavedClientState(client, version: version)
                guard names.insert(read.name).inserted else {
                    skipped.append(client.error("\(read.name) is saved before; the first is kept"))
                    continue
                }
                clients.append(read)
            } catch {
                skipped.append(error)
            }
        }
        self.init(services: services, clients: clients)
    }
}

extension SavedClientState {
    var json: JSONValue {
        .object([
            ("name", .string(name)), ("status", .string(status.rawValue)), ("provisional", .bool(provisional)),
            ("fullAccuracy", .bool(fullAccuracy)), ("upgradePromptShown", .bool(upgradePromptShown)),
            ("shareConsent", .bool(shareConsent)), ("reduced", reduced.json),
        ])
    }

    init(_ f: StateField, version: Int) throws(SavedStateError) {
        let status = try f.member("status").word(AuthorizationStatus.allCases.map(\.rawValue)) {
            AuthorizationStatus(rawValue: $0)
        }
        self.init(
            name: try f.member("name").string(), status: status, provisional: try f.member("provisional").bool(),
            fullAccuracy: try f.member("fullAccuracy").bool(), upgradePromptShown: try f.member("upgradePromptShown").bool(),
            shareConsent: version >= 2
                ? try f.member("shareConsent").bool() : try f.optionalMember("shareConsent")?.bool() ?? false,
            reduced: try ReducedAccuracyState(f.member("reduced")))
    }
}

extension ReducedAccuracyState {
    /// The random state is four hexadecimal strings: JSON numbers are doubles and would lose the low bits.
    var json: JSONValue {
        let (a, b, c, d) = random.state
        var members: [(String, JSONValue)] = [
            ("offsetEast", .number(offsetEast)), ("offsetNorth", .number(offsetNorth)),
            ("random", .array([a, b, c, d].map { .string(Xoshiro256.hex($0)) })),
        ]
        if let driftHour { members.append(("driftHour", .number(driftHour))) }
        if let lastDelivery { members.append(("lastDelivery", .number(lastDelivery))) }
        return .object(members)
    }

    init(_ f: StateField) throws(SavedStateError) {
        let randomField = try f.member("random")
        let words = try randomField.elements()
        var state: [UInt64] = []
        for word in words {
            guard let text = word.value.stringValue, let n = UInt64(text, radix: 16) else {
                throw word.error("random state words are hexadecimal strings")
            }
            state.append(n)
        }
        guard state.count == 4, let random = Xoshiro256(state: (state[0], state[1], state[2], state[3])) else {
            throw randomField.error("random state must be four hexadecimal words, not all zero")
        }
        self.init(
            offsetEast: try f.member("offsetEast").number(), offsetNorth: try f.member("offsetNorth").number(),
            random: random, driftHour: try f.optionalMember("driftHour")?.number(),
            lastDelivery: try f.optionalMember("lastDelivery")?.number())
    }
}

/// Why a value is not a saved state: a sentence naming where, e.g. `at clients[0].status: …`.
public struct SavedStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    init(_ description: String) { self.description = description }
}

/// One value inside a state object and where it is, for messages.
struct StateField {
    let value: JSONValue
    /// `clients[0].reduced`; empty at the top.
    let path: String

    func error(_ message: String) -> SavedStateError {
        SavedStateError(path.isEmpty ? message : "at \(path): \(message)")
    }

    func member(_ key: String) throws(SavedStateError) -> StateField {
        guard let field = try optionalMember(key) else {
            throw path.isEmpty ? SavedStateError("\"\(key)\" is missing") : error("\"\(key)\" is missing")
        }
        return field
    }

    /// A member that may be absent (or `null`).
    func optionalMember(_ key: String) throws(SavedStateError) -> StateField? {
        guard value.objectValue != nil else { throw error("expected an object") }
        guard let member = value[key], member != .null else { return nil }
        return StateField(value: member, path: path.isEmpty ? key : "\(path).\(key)")
    }

    func elements() throws(SavedStateError) -> [StateField] {
        guard let array = value.arrayValue else { throw error("expected an array") }
        return array.enumerated().map { StateField(value: $1, path: "\(path)[\($0)]") }
    }

    func bool() throws(SavedStateError) -> Bool {
        guard let b = value.boolValue else { throw error("expected true or false") }
        return b
    }

    func number() throws(SavedStateError) -> Double {
        guard let n = value.numberValue else { throw error("expected a number") }
        return n
    }

    func int() throws(SavedStateError) -> Int {
        let n = try number()
        guard let i = value.intValue else { throw error("\(n) is not a whole number") }
        return i
    }

    func string() throws(SavedStateError) -> String {
        guard let s = value.stringValue else { throw error("expected a string") }
        return s
    }

    func word<T>(_ words: [String], _ make: (String) -> T?) throws(SavedStateError) -> T {
        let s = try string()
        guard let result = make(s) else {
            throw error("\"\(s)\" is not one of " + words.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return result
    }
}
