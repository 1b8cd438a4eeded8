#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationSystem
import Synchronization

/// The GeoClue apps that became clients of their own (docs/geoclue.md, "New
/// apps"), laid over the file's configuration wherever the daemon takes one
/// (start, SIGHUP, a new app). What a bus client asks (`RequestedAccuracyLevel`,
/// thresholds) is never laid over: it narrows that client object's own signals
/// in the face (`GeoClueFace`), never the engine client's settings.
///
/// * an app no `[client.NAME] geoclue_id` takes becomes the client
///   `gc-DESKTOPID-UID` (the desktop id's characters other than letters,
///   digits, `-` and `_` as `_`; `-2`, `-3`… when that name is taken), with the
///   status `ask` and `[geoclue]`'s defaults; the list is kept in
///   `state_dir/geoclue-apps.json`, so the name, and with it the client's state
///   in `state.json`, survive restarts.
final class GeoClueApps: Sendable {
    /// One app that became a client of its own: the principal (desktop id, uid).
    struct App: Sendable, Hashable {
        var name: String
        var desktopId: String
        var uid: UInt32
    }

    /// Why an app cannot become a client.
    enum Refusal: Error, Sendable {
        /// `new_apps = deny`.
        case denied
        /// The uid has `max_apps` apps already.
        case tooMany(Int)
        /// The list could not be saved.
        case unsaved(SystemError)
    }

    /// The list's file name inside `state_dir`.
    static let fileName = "geoclue-apps.json"

    private let path: String
    private let settings: GeoClueSettings
    private let state = Mutex<[App]>([])

    /// The list kept in `directory`; a missing or unreadable file is an empty list (said once).
    init(directory: String, settings: GeoClueSettings) {
        path = DaemonConfig.join(directory, Self.fileName)
        self.settings = settings
        let apps = Self.load(path)
        state.withLock { $0 = apps }
    }

    /// The apps of their own, in the order they came.
    var apps: [App] { state.withLock { $0 } }

    /// The client of (desktop id, uid), made when it is new (`configured`: the names taken already).
    func client(desktopId: String, uid: UInt32, configured: Set<String>) -> Result<(app: App, new: Bool), Refusal> {
        state.withLock { known -> Result<(app: App, new: Bool), Refusal> in
            if let app = known.first(where: { $0.desktopId == desktopId && $0.uid == uid }) { return .success((app, false)) }
            guard settings.newAppsAsk else { return .failure(.denied) }
            let owned = known.count { $0.uid == uid }
            guard owned < settings.maximumApps else { return .failure(.tooMany(owned)) }
            let taken = configured.union(known.map(\.name))
            let app = App(name: Self.name(desktopId: desktopId, uid: uid, taken: taken), desktopId: desktopId, uid: uid)
            var apps = known
            apps.append(app)
            if let error = Self.save(apps, to: path) { return .failure(.unsaved(error)) }
            known = apps
            return .success((app, true))
        }
    }

    /// `config` with the apps of their own added.
    func overlay(_ config: DaemonConfig) -> DaemonConfig {
        let apps = self.apps
        var config = config
        let names = Set(config.clients.map(\.name))
        for app in apps where !names.contains(app.name) {
            config.clients.append(
                ClientSettings(
                    name: app.name, usage: settings.usage.replacing("%s", with: app.desktopId),
                    precise: settings.precise, authorization: .ask, geoclueId: app.desktopId))
        }
        return config
    }

    /// `gc-` and the desktop id's name-safe characters, `-UID`, unique among `taken`.
    static func name(desktopId: String, uid: UInt32, taken: Set<String>) -> String {
        let safe = String(
            desktopId.unicodeScalars.map { s -> Character in
                let ok = (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_"
                return ok ? Character(s) : "_"
            })
        let tail = "-\(uid)"
        let stem = "gc-" + String(safe.prefix(64 - 3 - tail.count - 3))
        var name = stem + tail
        var n = 2
        while taken.contains(name) {
            name = stem + tail + "-\(n)"
            n += 1
        }
        return name
    }

    private static func load(_ path: String) -> [App] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno != ENOENT { Diagnostics.geoclue.warning("cannot read \(path) (\(SystemError("open", errno: errno))); no GeoClue app is known") }
            return []
        }
        defer { close(fd) }
        guard let bytes = try? DescriptorIO.readAll(fd, limit: 4 << 20, name: path),
            let json = try? JSONValue.parse(bytes), let list = json["apps"]?.arrayValue
        else {
            Diagnostics.geoclue.warning("\(path) is not a list of GeoClue apps; no GeoClue app is known")
            return []
        }
        return list.compactMap { item in
            guard let name = item["name"]?.stringValue, let id = item["desktopId"]?.stringValue,
                let uid = item["uid"]?.intValue, let uid = UInt32(exactly: uid)
            else { return nil }
            return App(name: name, desktopId: id, uid: uid)
        }
    }

    private static func save(_ apps: [App], to path: String) -> SystemError? {
        let json = JSONValue.object([
            ("apps", .array(apps.map { .object([("name", .string($0.name)), ("desktopId", .string($0.desktopId)), ("uid", .number(Double($0.uid)))]) }))
        ])
        do {
            let writer = try AtomicFileWriter(path: path, mode: 0o600)
            try writer.write(Array((json.serialized + "\n").utf8))
            return try writer.commit()
        } catch {
            return error
        }
    }
}
