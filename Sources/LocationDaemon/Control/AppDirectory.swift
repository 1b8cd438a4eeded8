import LocationConfig
import LocationCore

/// Every client's app (`app_users`, `app_groups`, `app_units`), resolved when
/// the control server starts: which clients a peer is the app of.
struct AppDirectory: Sendable {
    /// Each client that names an app, with who it is.
    var apps: [(client: String, app: ProgramAllowList)] = []

    /// No client names an app.
    init() {}

    /// The apps of `config`'s clients; names that are not users or groups
    /// here are reported (they let nobody in).
    init(_ config: DaemonConfig) {
        var warnings: [String] = []
        for client in config.clients {
            let (app, problems) = ProgramAllowList.app(client)
            warnings += problems
            if let app { apps.append((client.name, app)) }
        }
        for warning in warnings { Diagnostics.control.warning(warning) }
    }

    /// Whether some client names its app by unit, so a peer's cgroup is worth reading.
    var namesUnits: Bool { apps.contains { !$0.app.units.isEmpty } }

    /// The clients whose app `principal` is (by uid, groups or system unit: never a user unit), in config order.
    func clients(of principal: Principal) -> [String] {
        apps.filter { $0.app.matches(principal) }.map(\.client)
    }
}
