import LocationProtocol

/// The user side (docs/authorization.md §13): answering a pending prompt.
extension Engine {
    mutating func answerPrompt(
        _ i: Int, _ answer: Answer, precise: Bool?, now: Double, effects: inout EffectList
    ) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        guard let pending = clients[i].prompt else {
            return .failure(CommandError(.noPrompt, "no prompt is pending for \(name)"))
        }
        let kind = pending.kind
        guard kind.answers.contains(answer) else {
            return .failure(
                CommandError(
                    .invalidAnswer, "a \(kind.rawValue) prompt takes \(Self.answerList(kind)), not \(answer.rawValue)"))
        }
        let grants: Bool
        if case .permission = pending, answer != .deny { grants = true } else { grants = false }
        if precise != nil, !grants {
            return .failure(
                CommandError(
                    .invalidArgument,
                    "precise is the Precise switch of a while-using or always prompt, answered allow-once or allow-while-using; a \(kind.rawValue) prompt answered \(answer.rawValue) has none"
                ))
        }
        clients[i].prompt = nil
        effects.append(.event(.prompt(pending.prompt(client: name), open: false)))
        let before = authorization(of: i)
        switch (pending, answer) {
        case (.permission(.whileUsing, _), .allowWhileUsing):
            clients[i].setGrant(.whenInUse(temporary: nil))
        case (.permission(.always, _), .allowWhileUsing):
            // As iOS 13+: "Allow While Using App" on an always request gives provisional always.
            clients[i].setGrant(.always(provisional: true))
        case (.permission, .allowOnce):
            clients[i].grantAllowOnce(now: now)
        case (.permission, .deny):
            clients[i].setGrant(.denied)
        case (.alwaysUpgrade, .keepWhileUsing):
            clients[i].setGrant(.whenInUse(temporary: nil))
        case (.alwaysUpgrade, .changeToAlways):
            clients[i].setGrant(.always(provisional: false))
        case (.fullAccuracy(let purpose, _), .allow):
            clients[i].grantTemporaryFullAccuracy(purpose: purpose, now: now)
            return .success(
                CommandOutcome(
                    changed: true,
                    message: "\(name): temporary full accuracy (\(purpose)) until \(Self.seconds(clients[i].settings.onceGrace)) out of use"))
        case (.fullAccuracy, .deny):
            return .success(CommandOutcome(changed: true, message: "\(name) keeps reduced accuracy; the prompt is closed"))
        case (.share, .allow):
            clients[i].shareConsent = true
            grantShare(i, now: now)
        case (.share, .deny):
            return .success(
                CommandOutcome(
                    changed: true, message: "\(name) stays \(before.statusDescription); the share prompt is closed"))
        case (.permission, _), (.alwaysUpgrade, _), (.fullAccuracy, _), (.share, _):
            preconditionFailure("answer \(answer.rawValue) passed the \(kind.rawValue) prompt's answer check")
        }
        if let precise {
            // The prompt's Precise switch (iOS 14) sets the accuracy with the grant.
            clients[i].accuracy = Accuracy(precise: precise)
        }
        var message = "\(name): \(before.statusDescription) → \(authorization(of: i).statusDescription)"
        if before.accuracy != clients[i].accuracy.authorization { message += ", \(clients[i].accuracy.authorization) accuracy" }
        return .success(CommandOutcome(changed: true, message: message))
    }
}
