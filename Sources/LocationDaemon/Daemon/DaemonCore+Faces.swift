import LocationCore

/// What a face (`Face`) asks of the core beyond the control handler's requests: the clients it
/// makes laid over the configuration again, a prompt nobody is left to answer withdrawn, an
/// event of its peers in the audit log.
extension DaemonCore {
    /// A face's clients changed (a new app became a client of its own): the engine takes the
    /// file's configuration with every face's clients laid over it, as a reload does (every client
    /// keeps its state; a new client starts as its settings say).
    func reapplyFaces() {
        file.withLock { file in
            _ = owner.withLock { $0.reload(faces.overlay(file)) }
        }
    }

    /// `client`'s pending prompt is withdrawn, unanswered: the app that asked went away and no
    /// holder of any face holds the client (docs/geoclue.md, "Prompts of apps that left").
    func withdrawPrompt(of client: String, reason: String) {
        owner.withLock { $0.withdrawPrompt(of: client, reason: reason) }
    }

    /// Appends a face's event (a peer refused) to the audit log.
    func audit(_ record: AuditRecord) {
        owner.withLock { $0.auditFace(record) }
    }

    /// The face of type `kind`, if the core has one.
    func face<Kind: Face>(_ kind: Kind.Type) -> Kind? {
        faces.lazy.compactMap { $0 as? Kind }.first
    }
}
