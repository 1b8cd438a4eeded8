/// Who a control peer is, and so what it may send (docs/protocol.md,
/// "Roles"); decided once when the peer connects, from the kernel's word
/// about it (`SO_PEERCRED`, `SO_PEERGROUPS`, its cgroup's unit).
///
/// | role | may send |
/// |---|---|
/// | operator (uid 0, `socket_group`) | everything |
/// | app of client X | `hello`, the reads; the app side for X: `session`, `request`, `request-full-accuracy`, `start`, `stop`, `locate` |
/// | anyone else | `hello` and the reads, without a coordinate |
///
/// The user side (`answer`, `authorize`, `accuracy`, `share`, `reset`,
/// `services`) is the operator's only: the person, not the program, grants.
public struct ControlRole: Sendable, Hashable {
    /// Root or a member of `socket_group`.
    public var isOperator: Bool
    /// The clients whose app the peer is (`app_users`, `app_groups`, `app_units`).
    public var apps: Set<String>

    /// A role from its parts.
    public init(isOperator: Bool, apps: Set<String> = []) {
        self.isOperator = isOperator
        self.apps = apps
    }

    /// Whether `command` is the app side's (what an app asks for itself) rather than the user's.
    public static func isAppSide(_ command: Command) -> Bool {
        command.word.side == .app
    }

    /// The `cmd` words of the app side, in the order of the protocol.
    public static let appSideCommandNames = CommandWord.allCases.filter { $0.side == .app }.map(\.rawValue)

    /// Whether the peer may send `operation`.
    public func permits(_ operation: ControlRequest.Operation) -> Bool {
        guard case .command(let command) = operation else { return true }
        if isOperator { return true }
        guard Self.isAppSide(command), let client = command.client else { return false }
        return apps.contains(client)
    }

    /// The `not-authorized` error for `request` when the peer may not send
    /// it, saying who may; `nil` when it may. `group` names `socket_group`.
    public func refusal(_ request: ControlRequest, group: String?) -> ProtocolError? {
        guard !permits(request.operation), case .command(let command) = request.operation else { return nil }
        let operators = group.map { "root and members of the socket group \($0)" } ?? "root"
        let name = command.name
        let message: String
        if let client = command.client, Self.isAppSide(command) {
            message = "\(name) of \(client) is \(client)'s app side: only \(client)'s app (app_users, app_groups or "
                + "app_units in [client.\(client)]) and \(operators) (socket_group) may send it; see locationd.conf(5)"
        } else {
            message = "\(name) is the user's side, which a program cannot take for itself: only \(operators) may send it "
                + "(socket_group in locationd.conf)"
        }
        return ProtocolError(.notAuthorized, message, id: request.id)
    }
}
