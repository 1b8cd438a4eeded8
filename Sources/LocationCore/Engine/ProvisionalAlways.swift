import LocationProtocol
import LocationValues

/// Provisional always and its one upgrade prompt (docs/authorization.md §3, iOS 13+):
/// "Allow While Using App" on an always prompt grants `always` provisionally,
/// which delivers only while in use (`Grant.deliveryRefusal`). The first fix
/// that only a full always would deliver — out of use, updating or locating,
/// usable, newer, within the accuracy gate — is held back and opens the
/// "Change to Always Allow?" prompt instead; `keep-while-using` makes it
/// `while-using`, `change-to-always` a full `always`. A permanent while-using
/// client asking `request always` gets the same prompt at once. It opens at
/// most once per client ever (`upgradePromptShown`, saved; `reset` forgets it).
/// This file is the whole rule.
extension Engine {
    /// The upgrade prompt at a fix a provisional client could not take (the fix path, steps 1–2 failed;
    /// out of line, so the fix loop stays small).
    @inline(never)
    mutating func considerUpgradePrompt(_ i: Int, fix: Fix, time: Double, base: Int, effects: inout EffectList) {
        let c = clients[i]
        guard case .always(provisional: true) = c.grant, services, !c.restricted, !c.inUse,
            c.updating || c.locate != nil, !c.upgradePromptShown, c.prompt == nil
        else { return }
        if c.track.isSameEpoch(time, base: base) { return }
        if let error = fix.horizontalError, !(error <= c.accuracyLimit) { return }
        let prompt = PendingPrompt.alwaysUpgrade(text: c.settings.usageAlways ?? c.settings.usage ?? "")
        clients[i].prompt = prompt
        clients[i].upgradePromptShown = true
        persistPending = true
        effects.append(.event(.prompt(prompt.prompt(client: c.settings.name), open: true)))
    }

    /// `request always` from a permanent while-using grant: the upgrade prompt at once, if never shown.
    mutating func requestAlwaysUpgrade(_ i: Int, effects: inout EffectList) -> Outcome {
        let c = clients[i]
        guard !c.upgradePromptShown else {
            return .success(
                CommandOutcome(
                    changed: false,
                    message: "the always prompt has already been shown to the user once; it can be changed in settings: \(Command.authorize(client: c.settings.name, status: .always).commandLine)"))
        }
        clients[i].upgradePromptShown = true
        return .success(open(.alwaysUpgrade(text: c.settings.usageAlways ?? ""), i, effects: &effects))
    }
}
