import LocationCore
import LocationProtocol
import LocationValues

extension AuditRecord {
    /// What `command` can change, as its `before` and `after` show it: the
    /// Location Services switch, or the client's authorization with its app
    /// state and open prompt (`null` for a client the engine does not know).
    static func state(of command: Command, in status: EngineStatus) -> JSONValue {
        guard let name = command.client else { return .object([("services", .bool(status.services))]) }
        guard let client = status.clients.first(where: { $0.authorization.client == name }) else { return .null }
        var members = client.authorization.json.objectValue ?? []
        members.append(("inUse", .bool(client.inUse)))
        members.append(("updating", .bool(client.updating)))
        members.append(("locatePending", .bool(client.locatePending)))
        if let prompt = client.prompt { members.append(("prompt", .string(prompt.kind.rawValue))) }
        return .object(members)
    }
}
