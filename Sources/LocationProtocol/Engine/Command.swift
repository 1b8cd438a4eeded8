/// What `request` asks for.
public enum RequestKind: String, Sendable, Hashable, CaseIterable {
    /// `requestWhenInUseAuthorization()`.
    case whileUsing = "while-using"
    /// `requestAlwaysAuthorization()`.
    case always
}

/// A state-changing input from one of the three sides (docs/authorization.md §13). Read-only
/// requests (`hello`, `status`, `prompts`, `watch`) are answered from the
/// engine's query methods and are not commands.
public enum Command: Sendable, Hashable {
    /// Settings: the Location Services switch.
    case services(on: Bool)
    /// Settings: store a status; flags cleared.
    case authorize(client: String, status: AuthorizationStatus)
    /// Settings: the Precise Location switch (`full: false` is reduced).
    case accuracy(client: String, full: Bool)
    /// App: `requestWhenInUseAuthorization()` / `requestAlwaysAuthorization()`.
    case request(client: String, kind: RequestKind)
    /// User: answer the client's pending prompt. `precise` is the prompt's Precise switch (iOS 14), for an
    /// answer that grants location on a while-using or always prompt: `false` grants approximate location
    /// at once, `true` precise; `nil` leaves the accuracy as it is.
    case answer(client: String, answer: Answer, precise: Bool? = nil)
    /// Settings/user: the location button.
    case share(client: String)
    /// Settings: Reset Location & Privacy for one client: back to its configured first-start status and
    /// accuracy; the upgrade prompt and the location button's consent count as never shown.
    case reset(client: String)
    /// App: `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`.
    case requestFullAccuracy(client: String, purpose: String)
    /// App: foreground (`inUse: true`) or background.
    case session(client: String, inUse: Bool)
    /// App: `startUpdatingLocation()`.
    case start(client: String)
    /// App: `stopUpdatingLocation()`.
    case stop(client: String)
    /// App: `requestLocation()`, with a timeout in seconds (`nil`: the client's `locate_timeout`).
    case locate(client: String, timeout: Double?)

    /// The protocol's `cmd` word.
    public var word: CommandWord {
        switch self {
        case .services: .services
        case .authorize: .authorize
        case .accuracy: .accuracy
        case .request: .request
        case .answer: .answer
        case .share: .share
        case .reset: .reset
        case .requestFullAccuracy: .requestFullAccuracy
        case .session: .session
        case .start: .start
        case .stop: .stop
        case .locate: .locate
        }
    }

    /// The protocol's `cmd` word as text.
    public var name: String { word.rawValue }

    /// The client the command names, if any.
    public var client: String? {
        switch self {
        case .services: nil
        case .authorize(let c, _), .accuracy(let c, _), .request(let c, _), .answer(let c, _, _), .share(let c),
            .reset(let c), .requestFullAccuracy(let c, _), .session(let c, _), .start(let c), .stop(let c), .locate(let c, _):
            c
        }
    }
}

/// A refused command: a stable code for programs and a sentence for people.
public struct CommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable error codes, as they appear in replies (`"error":{"code":...}`).
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// No configured client has that name.
        case unknownClient = "unknown-client"
        /// `request` without the usage text the request needs.
        case missingUsageDescription = "missing-usage-description"
        /// The client is locked by policy.
        case restricted
        /// The user denied location (or services are off): change it in settings.
        case denied
        /// `answer` with no prompt pending for that client.
        case noPrompt = "no-prompt"
        /// An answer the pending prompt does not accept.
        case invalidAnswer = "invalid-answer"
        /// `request-full-accuracy` with a purpose key not in the config.
        case unknownPurpose = "unknown-purpose"
        /// `request-full-accuracy` while the client is not in use.
        case notInUse = "not-in-use"
        /// A field value out of range (e.g. a negative timeout).
        case invalidArgument = "invalid-argument"
    }

    /// The code.
    public var code: Code
    /// A sentence a person can act on.
    public var message: String

    /// An error from its parts.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// An accepted command: whether anything changed, and a sentence saying what
/// happened (or why nothing did, e.g. "logger is already while-using").
public struct CommandOutcome: Sendable, Hashable {
    /// Whether any state changed.
    public var changed: Bool
    /// What happened, for a person.
    public var message: String
    /// The prompt the command opened, if it opened one.
    public var prompt: Prompt?

    /// An outcome from its parts.
    public init(changed: Bool, message: String, prompt: Prompt? = nil) {
        self.changed = changed
        self.message = message
        self.prompt = prompt
    }
}

/// The engine's answer to a command: the reply, and the effects to carry out.
public struct CommandResult: Sendable {
    /// The reply to the requester.
    public var outcome: Result<CommandOutcome, CommandError>
    /// Events, deliveries and persistence requests caused by the command.
    public var effects: [Effect]

    /// A result from its parts.
    public init(outcome: Result<CommandOutcome, CommandError>, effects: [Effect]) {
        self.outcome = outcome
        self.effects = effects
    }
}
