/// Who holds each client now, every face's holders in one place (docs/authorization.md, "Who
/// holds a client"): whatever face each holder comes through (`ClientHolder.Face`). The engine has
/// one in-use and one updating state per client; the registry decides when the faces' comings
/// and goings change them:
///
/// * the first holder of any face begins the session, the first that wants updates starts them;
/// * the session ends only when the last holder of every face has gone, updates stop only when
///   the last holder wanting them has gone;
/// * only what the registry itself began or started is ended or stopped: a client the
///   configuration keeps in use or updating (`in_use = on`, `updating = on`), or the operator
///   began or started, was in use or updating already when its first holder came, and stays so.
///
/// Not thread-safe: `EngineOwner` keeps it, behind the lock that serialises the engine.
struct ClientHolders {
    /// What a holder's coming or going asks of the engine.
    struct Due: Equatable {
        /// Begin the session (coming) or end it (going).
        var session = false
        /// Start updates (coming) or stop them (going).
        var updates = false
    }

    private struct Key: Hashable {
        var face: ClientHolder.Face
        var id: String
    }

    private struct Entry {
        /// Every holder, and whether it wants updates.
        var holders: [Key: Bool] = [:]
        /// The registry began the session (it was out of use when the first holder came).
        var began = false
        /// The registry started the updates.
        var started = false
    }

    private var entries: [String: Entry] = [:]

    /// `holder` holds `client` from now on; what the engine must be asked (`began` and `started`
    /// then say whether it changed anything).
    mutating func hold(_ client: String, by holder: ClientHolder) -> Due {
        var entry = entries[client] ?? Entry()
        entry.holders[Key(face: holder.face, id: holder.id)] = holder.updates
        entries[client] = entry
        return Due(session: !entry.began, updates: holder.updates && !entry.started)
    }

    /// `holder` no longer holds `client`; what the engine must be asked. A holder not held is no change.
    mutating func release(_ client: String, by holder: ClientHolder) -> Due {
        guard var entry = entries[client], entry.holders.removeValue(forKey: Key(face: holder.face, id: holder.id)) != nil
        else { return Due() }
        var due = Due()
        if entry.started, !entry.holders.values.contains(true) {
            due.updates = true
            entry.started = false
        }
        if entry.began, entry.holders.isEmpty {
            due.session = true
            entry.began = false
        }
        entries[client] = entry.holders.isEmpty && !entry.began && !entry.started ? nil : entry
        return due
    }

    /// The engine's answer to the session begin `hold` asked for: whether it put the client in use.
    mutating func began(_ client: String, changed: Bool) {
        if changed { entries[client]?.began = true }
    }

    /// The engine's answer to the start `hold` asked for: whether it started the updates.
    mutating func started(_ client: String, changed: Bool) {
        if changed { entries[client]?.started = true }
    }

    /// How many holders `client` has, of every face.
    func count(of client: String) -> Int {
        entries[client]?.holders.count ?? 0
    }

    /// The faces of `client`'s holders that want updates, by name.
    func updatingFaces(of client: String) -> [ClientHolder.Face] {
        Set((entries[client]?.holders ?? [:]).filter(\.value).map(\.key.face)).sorted()
    }

    /// How many of `client`'s holders want updates.
    func updating(_ client: String) -> Int {
        entries[client]?.holders.values.count(where: { $0 }) ?? 0
    }
}
