import LocationProtocol

extension SavedState {
    /// What a restart would undo if it loaded `saved` (the state file as it is on disk;
    /// `nil`: there is none) instead of this state: one phrase per decision, the decision
    /// now and what the restart would bring back instead, e.g.
    /// `logger: never (a restart brings back always)`. Only what a person decided or was asked —
    /// the switch, each stored status, provisional always, Precise Location, the prompts shown
    /// and the location button's consent; the reduced-accuracy clocks change on their own and
    /// are not listed. Empty when nothing a person decided would be lost.
    public func undone(bySaved saved: SavedState?) -> [String] {
        guard let saved else {
            return ["everything: there is no state file yet, so a restart starts from the configuration's initial values"]
        }
        var lost: [String] = []
        if services != saved.services {
            lost.append("Location Services \(Self.onOff(services)) (a restart brings back \(Self.onOff(saved.services)))")
        }
        for client in clients {
            guard let before = saved.client(client.name) else {
                lost.append("\(client.name): \(client.status.rawValue) (a restart brings back its configured authorization)")
                continue
            }
            if client.status != before.status || client.provisional != before.provisional {
                lost.append(
                    "\(client.name): \(Self.word(client.status, client.provisional)) "
                        + "(a restart brings back \(Self.word(before.status, before.provisional)))")
            }
            if client.fullAccuracy != before.fullAccuracy {
                lost.append(
                    "\(client.name): precise location \(Self.onOff(client.fullAccuracy)) "
                        + "(a restart brings back \(Self.onOff(before.fullAccuracy)))")
            }
            if client.shareConsent != before.shareConsent {
                lost.append(
                    "\(client.name): location button \(client.shareConsent ? "allowed" : "not allowed") "
                        + "(a restart brings back \(before.shareConsent ? "allowed" : "not allowed"))")
            }
            if client.upgradePromptShown != before.upgradePromptShown {
                lost.append("\(client.name): the always prompt was shown (a restart would show it again)")
            }
        }
        return lost
    }

    private static func onOff(_ on: Bool) -> String { on ? "on" : "off" }

    private static func word(_ status: AuthorizationStatus, _ provisional: Bool) -> String {
        provisional ? "\(status.rawValue) (provisional)" : status.rawValue
    }
}
