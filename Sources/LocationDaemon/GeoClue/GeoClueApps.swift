#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationValues
import LocationSystem
import Synchronization

/// The GeoClue apps that became clients of their own (docs/geoclue.md, "New
/// apps"), laid over the file's configuration wherever the daemon takes one
/// (start, SIGHUP, a new app). What a bus client asks (`RequestedAccuracyLevel`,
/// thresholds) is never laid over: it narrows that client object's own signals
/// in the face (`GeoClueServer`), never the engine client's settings.
///
/// * an app no `[client.NAME] geoclue_id` takes becomes the client
///   `gc-DESKTOPID-UID` (the desktop id's characters other than letters,
///   digits, `-` and `_` as `_`; `-2`, `-3`… when that name is taken), with the
///   status `ask` and `[geoclue]`'s defaults; the list is kept in
///   `state_dir/geoclue-apps.json`, one app a line, so the name, and with it the
///   client's state in `state.json`, survive restarts. The list is bounded by
///   construction (desktop ids of at most 255 bytes, `max_apps` a uid,
///   `maximumApps` in all), and read back row by row (`JSONRows`): a bad row is
///   reported with its place and skipped, the others kept;
/// * a uid at `max_apps` that starts a new app has its oldest app that never
///   got a decision (still `ask`, no prompt pending, not started) forgotten to
///   make room, so junk ids never lock out the app it really runs.
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
        /// The uid has `max_apps` apps already, each decided or in use.
        case tooMany(Int)
        /// The list holds `maximumApps` apps already, whoever's.
        case full(Int)
        /// The list could not be saved.
        case unsaved(SystemError)
    }

    /// The list's file name inside `state_dir`.
    static let fileName = "geoclue-apps.json"
    /// Apps of their own in all, every uid's together: with `max_apps` a uid, what keeps the list
    /// (at most some 700 bytes a row) a few MiB whoever starts what. Tests make it smaller.
    let maximumApps: Int
    /// A row of the file longer than this is no app of ours (a valid one is well under 1 KiB).
    static let maximumRowBytes = 4096

    private let path: String
    private let settings: GeoClueSettings
    private let state = Mutex<[App]>([])

    /// The list kept in `directory`; a missing or unreadable file is an empty list (said once).
    init(directory: String, settings: GeoClueSettings, maximumApps: Int = 16384) {
        path = DaemonConfig.join(directory, Self.fileName)
        self.settings = settings
        self.maximumApps = maximumApps
        let apps = Self.load(path)
        state.withLock { $0 = apps }
    }

    /// The apps of their own, in the order they came.
    var apps: [App] { state.withLock { $0 } }

    /// The client of (desktop id, uid), made when it is new (`configured`: the names taken already).
    /// At `max_apps`, the uid's oldest app that `undecided` says never got a decision is forgotten
    /// to make room (said in the journal).
    func client(
        desktopId: String, uid: UInt32, configured: Set<String>, undecided: (App) -> Bool = { _ in false }
    ) -> Result<(app: App, new: Bool), Refusal> {
        state.withLock { known -> Result<(app: App, new: Bool), Refusal> in
            if let app = known.first(where: { $0.desktopId == desktopId && $0.uid == uid }) { return .success((app, false)) }
            guard settings.newAppsAsk else { return .failure(.denied) }
            var apps = known
            let owned = apps.count { $0.uid == uid }
            var forgotten: App?
            if owned >= settings.maximumApps {
                guard let old = apps.firstIndex(where: { $0.uid == uid && undecided($0) }) else { return .failure(.tooMany(owned)) }
                forgotten = apps.remove(at: old)
            } else if apps.count >= maximumApps {
                // The whole list is full: the oldest app of anyone's that never got a decision makes
                // room, so no uid's junk locks another uid out.
                guard let old = apps.firstIndex(where: undecided) else { return .failure(.full(apps.count)) }
                forgotten = apps.remove(at: old)
            }
            let taken = configured.union(apps.map(\.name))
            let app = App(name: Self.name(desktopId: desktopId, uid: uid, taken: taken), desktopId: desktopId, uid: uid)
            apps.append(app)
            if let error = Self.save(apps, to: path) { return .failure(.unsaved(error)) }
            known = apps
            if let forgotten {
                let limit = owned >= settings.maximumApps ? "uid \(uid) is at max_apps (\(settings.maximumApps))" : "the list is full (\(maximumApps) apps)"
                Diagnostics.geoclue.notice(
                    "\(limit): forgot \(forgotten.name) (\(PeerText.escaped(forgotten.desktopId))), "
                        + "which never got a decision, to make room for \(app.name)")
            }
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
        let safe = String(desktopId.unicodeScalars.map { ClientSettings.isNameCharacter($0) ? Character($0) : "_" })
        let tail = "-\(uid)"
        let stem = "gc-" + String(safe.prefix(ClientSettings.maximumNameBytes - 3 - tail.count - 3))
        var name = stem + tail
        var n = 2
        while taken.contains(name) {
            name = stem + tail + "-\(n)"
            n += 1
        }
        return name
    }

    /// The list in `path`, row by row: a row that is no app (not an object, a name that is no
    /// client name, a desktop id the rule refuses, a uid out of range, a name or app seen before)
    /// is reported with its place and skipped; the others are kept.
    static func load(_ path: String) -> [App] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno != ENOENT { Diagnostics.geoclue.warning("cannot read \(path) (\(SystemError("open", errno: errno))); no GeoClue app is known") }
            return []
        }
        defer { close(fd) }
        var rows = JSONRows(maximumRowBytes: maximumRowBytes)
        var apps: [App] = []
        var names = Set<String>()
        var principals = Set<String>()
        var skipped = 0
        func take(_ row: JSONRows.Row) {
            let app: App
            switch row.value.flatMap(Self.app) {
            case .success(let found): app = found
            case .failure(let why):
                skipped += 1
                Diagnostics.geoclue.warning("\(path): app \(row.index) skipped: \(why)")
                return
            }
            guard names.insert(app.name).inserted, principals.insert("\(app.uid) \(app.desktopId)").inserted else {
                skipped += 1
                Diagnostics.geoclue.warning("\(path): app \(row.index) skipped: \(app.name) or its app is listed before")
                return
            }
            apps.append(app)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        do {
            while true {
                let n = try DescriptorIO.read(fd, into: &chunk, name: path)
                if n == 0 { break }
                rows.feed(chunk[0..<n]) { take($0) }
                if rows.complete { break }
            }
        } catch {
            Diagnostics.geoclue.warning("cannot read all of \(path) (\(error)); keeping the \(apps.count) GeoClue apps read before")
            return apps
        }
        if !rows.complete {
            Diagnostics.geoclue.warning("\(path) ends before its list does; keeping the \(apps.count) GeoClue apps read")
        } else if skipped > 0 {
            Diagnostics.geoclue.warning("\(path): \(skipped) app\(skipped == 1 ? "" : "s") skipped, \(apps.count) kept")
        }
        return apps
    }

    /// One row of the list as an app, or why it is none.
    private static func app(_ item: JSONValue) -> Result<App, JSONRows.Skipped> {
        guard let name = item["name"]?.stringValue, ClientSettings.isName(name) else {
            return .failure(JSONRows.Skipped("\"name\" is missing or no client name (1 to 64 letters, digits, - or _)"))
        }
        guard let id = item["desktopId"]?.stringValue, DesktopId.isValid(id) else {
            let what = item["desktopId"]?.stringValue.map { PeerText.escaped($0, limit: 64) } ?? "missing"
            return .failure(JSONRows.Skipped("\"desktopId\" (\(what)) is refused: \(DesktopId.rule)"))
        }
        guard let number = item["uid"]?.intValue, let uid = UInt32(exactly: number) else {
            return .failure(JSONRows.Skipped("\"uid\" is missing or no uid"))
        }
        return .success(App(name: name, desktopId: id, uid: uid))
    }

    private static func save(_ apps: [App], to path: String) -> SystemError? {
        // One app a line, so a person (and `load`) finds each row on its own.
        let rows = apps.map { JSONValue.object([("name", .string($0.name)), ("desktopId", .string($0.desktopId)), ("uid", .number(Double($0.uid)))]).serialized }
        let text = "{\"apps\":[\n" + rows.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n") + "]}\n"
        do {
            let writer = try AtomicFileWriter(path: path, mode: 0o600)
            try writer.write(Array(text.utf8))
            return try writer.commit()
        } catch {
            return error
        }
    }
}
