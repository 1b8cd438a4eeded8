#if canImport(Glibc)
import Glibc
#endif
import CBus
import LocationCore
import LocationSystem
import LocationConfig
import LocationProtocol
import LocationValues

/// The bus calls (`GetClient`, `CreateClient`, `DeleteClient`, `AddAgent`, `Start`, `Stop`) and
/// the object registry: which connection each client and location object is, and who may touch it.
extension GeoClueServer {

    func method(_ method: UInt32, path: String, argument: String?, call: OpaquePointer?, error: OpaquePointer?) -> Int32 {
        let sender = cbus_sender(call).map { String(cString: $0) } ?? ""
        switch method {
        case CBUS_GET_CLIENT.rawValue:
            if let path = given[sender], clients[path] != nil { return cbus_reply_object(call, path) }
            guard let client = makeClient(for: sender, error: error) else { return -EUSERS }
            given[sender] = client.path
            return cbus_reply_object(call, client.path)
        case CBUS_CREATE_CLIENT.rawValue:
            guard let client = makeClient(for: sender, error: error) else { return -EUSERS }
            return cbus_reply_object(call, client.path)
        case CBUS_DELETE_CLIENT.rawValue:
            guard let argument, let client = clients[argument] else {
                return cbus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "no such client: \(argument ?? "")")
            }
            guard client.owner == sender else {
                return cbus_error_set(error, Self.accessDenied, "\(argument) belongs to another connection")
            }
            remove(client, "its app deleted its client (DeleteClient)")
            return cbus_reply_empty(call)
        case CBUS_ADD_AGENT.rawValue:
            // No GUI agent answers here: the person answers with locationctl (docs/geoclue.md).
            Diagnostics.geoclue.info("\(sender) registered the agent \(PeerText.escaped(argument ?? "?", limit: 255)); not used: prompts are answered with \(CommandWord.answer.commandLine())")
            return cbus_reply_empty(call)
        case CBUS_START.rawValue:
            guard let client = clients[path] else { return -ENOENT }
            return start(client, call: call, error: error)
        case CBUS_STOP.rawValue:
            guard let client = clients[path] else { return -ENOENT }
            // One portal session closed: the others go on.
            if client.isPortal, client.starts > 1 {
                client.starts -= 1
                return cbus_reply_empty(call)
            }
            stop(client)
            withdrawPrompt(of: client, "its app stopped (Stop)")
            return cbus_reply_empty(call)
        default:
            return -EOPNOTSUPP
        }
    }

    func find(_ kind: UInt32, path: String, sender: String?, error: OpaquePointer?) -> UnsafeMutableRawPointer? {
        let found: (owner: String, props: UnsafeMutableRawPointer)? =
            switch kind {
            case CBUS_CLIENT.rawValue: clients[path].map { ($0.owner, UnsafeMutableRawPointer($0.props)) }
            case CBUS_LOCATION.rawValue: locations[path].map { ($0.owner, UnsafeMutableRawPointer($0.props)) }
            default: nil
            }
        guard let found else { return nil }
        guard let sender, sender == found.owner else {
            _ = cbus_error_set(error, Self.accessDenied, "\(path) belongs to another connection; make a client of your own with GetClient")
            return nil
        }
        return found.props
    }

    func makeClient(for sender: String, error: OpaquePointer?) -> GeoClueClient? {
        guard clients.values.count(where: { $0.owner == sender }) < Self.maximumClientsPerConnection else {
            _ = cbus_error_set(
                error, "org.freedesktop.DBus.Error.LimitsExceeded",
                "this connection holds \(Self.maximumClientsPerConnection) clients already; delete one with DeleteClient")
            return nil
        }
        let client = GeoClueClient(path: Self.clientPrefix + "\(nextClient)", owner: sender)
        nextClient += 1
        clients[client.path] = client
        return client
    }

    /// A `DesktopId` about to be set, checked by the one rule (`DesktopId`) where it lies in the
    /// bus message: one longer than the rule allows is refused before anything copies it.
    static func checkDesktopId(_ value: UnsafePointer<CChar>?, length: Int, error: OpaquePointer?) -> Int32 {
        // Empty is no id set (Start then says to set one).
        guard let value, length > 0 else { return 0 }
        guard DesktopId.fits(length: length) else {
            return cbus_error_set(error, invalidArgs, "DesktopId of \(length) bytes is refused: \(DesktopId.rule)")
        }
        let text = String(cString: value)
        guard DesktopId.isValid(text) else {
            return cbus_error_set(error, invalidArgs, "DesktopId \(PeerText.escaped(text)) is refused: \(DesktopId.rule)")
        }
        return 0
    }
}
