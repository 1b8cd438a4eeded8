import LocationProtocol

// The engine's side of ReceiverStatus (LocationProtocol): one for each receiver it has seen.
extension Engine {
    /// Every receiver seen, by name, with who follows it.
    func receiverStatuses(now: Double) -> [ReceiverStatus] {
        receivers.seen.names.sorted().map { device in
            let seen = receivers.seen[device] ?? ReceiverChoice.Seen()
            let age = seen.lastUsableAt.map { max(0, now - $0) }
            let state: ReceiverStatus.State =
                receivers.chosen == device ? .followed : (age.map { $0 < receivers.failover } == true ? .standby : .silent)
            let followers = clients.indices.filter { i in
                clients[i].settings.receiver.map { $0 == device } ?? (receivers.chosen == device)
            }.map { clients[$0].settings.name }
            return ReceiverStatus(
                device: device, state: state, quality: seen.quality, lastFixAge: age, fixes: seen.fixes, clients: followers,
                timeToFirstFix: seen.timeToFirstFix)
        }
    }
}
